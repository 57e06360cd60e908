import type { AuthInfo } from '@parley/server';
import { ParleyServer } from '@parley/server';

/** A server that requires a principal: the counterpart of the client's `auth`. */
export function createProtectedServer(
  verify: (token: string) => AuthInfo | undefined,
  authorizationServer?: string,
): ParleyServer {
  // #region server
  const mcp = new ParleyServer({
    name: 'Protected',
    http: {
      auth: {
        // Whose token is it? `undefined` refuses it (401); clientId is who sealed state is bound to.
        verifyToken: (token) => verify(token),
        // With an OAuth authorization server: published as protected resource metadata,
        // which the 401's WWW-Authenticate challenge points OAuth clients to.
        ...(authorizationServer !== undefined
          ? { authorizationServers: [authorizationServer] }
          : {}),
      },
    },
  });
  mcp.tool(
    'whoami',
    {},
    (_args, ctx) => `You are ${ctx.requestContext.principal}.`,
  );
  // #endregion server
  return mcp;
}
