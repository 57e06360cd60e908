import { Client } from '@parley/client';
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';

const askName = elicitRequest("What's your name?", String, {
  responseTitle: 'Name',
});

const server = new ParleyServer({ name: 'Greeter' });
server.tool('greet', {}, async (_args, ctx) => {
  if (ctx.era === 'handshake') {
    // Protocol ≤ 2025-11-25: ask mid-call, wait for the answer.
    const name = await ctx.elicit("What's your name?", String, {
      responseTitle: 'Name',
    });
    return name.action === 'accept' ? `Hello, ${name.data}!` : 'Hello!';
  }
  // Protocol 2026-07-28: return the question; the client answers, retries.
  const name = ctx.answer('name', askName);
  if (name === undefined)
    return inputRequired({ inputRequests: { name: askName } });
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
