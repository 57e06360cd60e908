// #region server
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';

const askName = elicitRequest("What's your name?", String, {
  responseTitle: 'Name',
});

export function createServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'Greeter' });

  mcp.tool(
    'greet',
    { description: 'Greets you by name.' },
    async (_args, ctx) => {
      if (ctx.era === 'handshake') {
        // Handshake era (≤ 2025-11-25): ask now, wait for the answer, carry on.
        const name = await ctx.elicit("What's your name?", String, {
          responseTitle: 'Name',
        });
        return name.action === 'accept'
          ? `Hello, ${name.data}!`
          : 'Hello, stranger!';
      }
      // Modern protocol (2026-07-28): return the question; the client answers and calls again.
      const name = ctx.answer('name', askName);
      if (name === undefined)
        return inputRequired({ inputRequests: { name: askName } });
      return name.action === 'accept'
        ? `Hello, ${name.data}!`
        : 'Hello, stranger!';
    },
  );

  return mcp;
}
// #endregion server
