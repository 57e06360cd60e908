// #region worker
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';

export interface Env {
  /** A secret from `npx @parley/state-sealing keygen`, the same in every isolate and region. */
  REQUEST_STATE_KEY: string;
}

const askName = elicitRequest("What's your name?", String, {
  responseTitle: 'Name',
});

function createServer(env: Env): ParleyServer {
  const mcp = new ParleyServer({
    name: 'Edge Greeter',
    requestStateSecurity: { keys: [env.REQUEST_STATE_KEY] },
    http: { sessions: false }, // nothing is kept between requests
  });
  mcp.tool('greet', (_args, ctx) => {
    const name = ctx.answer('name', askName);
    if (name === undefined)
      return inputRequired({ inputRequests: { name: askName } });
    return name.action === 'accept'
      ? `Hello, ${name.data}!`
      : 'Hello, stranger!';
  });
  return mcp;
}

let mcp: ParleyServer | undefined;

// The module shape of Cloudflare Workers; Deno, Bun and other routers call fetch the same way.
export default {
  fetch(request: Request, env: Env): Promise<Response> {
    mcp ??= createServer(env);
    return mcp.fetch(request);
  },
};
// #endregion worker
