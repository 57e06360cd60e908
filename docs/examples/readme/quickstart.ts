import { Client } from '@parley/client';
import { ParleyServer, elicitRequest } from '@parley/server';

const server = new ParleyServer({ name: 'Greeter' });
server.tool('greet', {}, async (_args, ctx) => {
  // Written once: a mid-call request on protocol ≤ 2025-11-25, a round the
  // client answers and retries on 2026-07-28 (the handler runs again).
  const name = await ctx.ask(
    'name',
    elicitRequest("What's your name?", String, { responseTitle: 'Name' }),
  );
  return name.action === 'accept' ? `Hello, ${name.data}!` : 'Hello!';
});

for (const mode of ['modern', 'handshake'] as const) {
  // The server in-process here; a URL or a stdio command works the same.
  await using client = new Client(server, {
    mode,
    elicitationHandler: async (message) => {
      console.log(`asked: ${message}`);
      return 'Ada';
    },
  });
  await client.connect();
  const result = await client.callTool('greet');
  console.log(
    `${client.protocolVersion}: ${JSON.stringify(result.content)}`,
  );
}
