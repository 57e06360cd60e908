import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';

export function createServer(): ParleyServer {
  // #region bridge
  const mcp = new ParleyServer({ name: 'Bridged Server', eraBridge: true });

  const askName = elicitRequest("What's your name?", String, {
    responseTitle: 'Name',
  });

  // Written once, in the guard pattern. Handshake-era clients are served through the bridge:
  // the ask is pushed as a real elicitation/create and the handler runs again with the answer.
  mcp.tool('greet', (_args, ctx) => {
    const name = ctx.answer('name', askName);
    if (name === undefined)
      return inputRequired({ inputRequests: { name: askName } });
    return name.action === 'accept'
      ? `Hello, ${name.data}!`
      : 'Hello, stranger!';
  });
  // #endregion bridge

  return mcp;
}
