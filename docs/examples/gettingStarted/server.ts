// #region server
import { ParleyServer, elicitRequest } from '@parley/server';

export function createServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'Greeter' });

  mcp.tool(
    'greet',
    { description: 'Greets you by name.' },
    async (_args, ctx) => {
      // One code path for both eras: a request the client answers mid-call (≤ 2025-11-25),
      // or a round that returns the question and runs again with the answer (2026-07-28).
      const name = await ctx.ask(
        'name',
        elicitRequest("What's your name?", String, {
          responseTitle: 'Name',
        }),
      );
      return name.action === 'accept'
        ? `Hello, ${name.data}!`
        : 'Hello, stranger!';
    },
  );

  return mcp;
}
// #endregion server
