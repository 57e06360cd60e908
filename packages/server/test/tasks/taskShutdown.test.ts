import { afterEach, describe, expect, test } from 'vitest';
import * as z from 'zod';

import {
  ParleyServer,
  createMemoryTaskStore,
  elicitRequest,
  type RunningServer,
  type TaskStore,
} from '../../src/index.ts';
import { modernRequestInit } from '../helpers/rawModern.ts';

/**
 * `close()` of a running server ends the tasks this process runs at once, `failed` with the
 * reason, instead of leaving them `working` until another replica notices the lease ran out.
 * Two servers share one store (two replicas); the lease is a minute long, so only the close
 * can have failed the task within the test.
 */

const TASKS = { 'io.modelcontextprotocol/tasks': {} };
const approve = elicitRequest(
  'Deploy to production?',
  z.object({ approve: z.boolean().meta({ title: 'Approve' }) }),
);

function replica(store: TaskStore, replicaId: string, aborted: unknown[]): ParleyServer {
  const server = new ParleyServer({
    name: 'deployer',
    tasks: { store, replicaId, leaseMs: 60_000 },
    onWarning: () => {},
    onError: () => {},
  });
  server.tool('deploy', { task: 'required' }, async (_args, ctx) => {
    try {
      await ctx.ask('approve', approve);
      return 'Deployed';
    } catch (error) {
      aborted.push(error);
      throw error;
    }
  });
  return server;
}

async function post(
  url: string,
  method: string,
  params: Record<string, unknown>,
): Promise<
  Record<string, unknown> & { error?: { code: number; message: string; data?: unknown } }
> {
  const response = await fetch(
    url,
    modernRequestInit(method, params, { elicitation: { form: {} }, extensions: TASKS }),
  );
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: never };
  if (body.result === undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close({ graceMs: 0 })));
});

describe('close() and the tasks of this process', () => {
  test('a running task ends failed (the server stopped) as soon as its replica closes', async () => {
    const store = createMemoryTaskStore();
    const aborted: unknown[] = [];
    const a = await replica(store, 'A', aborted).run({ transport: 'http', port: 0 });
    const b = await replica(store, 'B', aborted).run({ transport: 'http', port: 0 });
    running.push(b);

    const created = await post(a.url!, 'tools/call', { name: 'deploy', arguments: {} });
    expect(created.resultType).toBe('task');
    const taskId = String(created.taskId);
    for (let i = 0; i < 100; i++) {
      if ((await post(b.url!, 'tasks/get', { taskId })).status === 'input_required') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    const closing = Date.now();
    await a.close({ graceMs: 2_000 });
    const closedIn = Date.now() - closing;

    // Replica B reads the end at once: no lease had to run out (it has 60 s left).
    const seen = await post(b.url!, 'tasks/get', { taskId });
    expect(seen.status).toBe('failed');
    expect(seen.error).toEqual({
      code: -32603,
      message: 'The server stopped before this task finished; call the tool again.',
      data: { reason: 'server_stopped' },
    });
    expect(seen).not.toHaveProperty('inputRequests');
    // The handler was told: its wait ended with the reason.
    expect(aborted).toHaveLength(1);
    expect(String(aborted[0])).toMatch(/server stopped/i);
    expect(closedIn).toBeLessThan(2_000);

    // A task on the replica still up is untouched, and B keeps serving new ones.
    const other = await post(b.url!, 'tools/call', { name: 'deploy', arguments: {} });
    expect((await post(b.url!, 'tasks/get', { taskId: String(other.taskId) })).status).toMatch(
      /^(working|input_required)$/,
    );
  });
});
