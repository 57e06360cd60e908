import {
  Client,
  type InProcessServer,
  type TaskSnapshot,
} from '@parley/client';

/** Deploys through `server`, approving with `decide`, and says what the task went through. */
export async function deploy(
  server: InProcessServer | string,
  mode: 'modern' | 'handshake',
  decide: (message: string) => unknown,
): Promise<{ text: string; statuses: TaskSnapshot['status'][] }> {
  // #region call
  const client = new Client(server, {
    mode,
    // The same handler answers a task's questions as any other call's.
    elicitationHandler: (message, responseType) =>
      responseType(decide(message) as never),
  });
  await client.connect();

  const statuses: TaskSnapshot['status'][] = [];
  const result = await client.callTool(
    'deploy',
    {},
    {
      // Called once the call became a task: watch it, or cancel it (task.cancel()).
      onTask: (task) => {
        statuses.push(task.current.status);
        task.onChange((snapshot) => statuses.push(snapshot.status));
      },
    },
  );
  // #endregion call
  await client.close();
  const text = result.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
  return { text, statuses };
}
