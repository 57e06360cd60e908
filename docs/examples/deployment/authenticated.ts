import { type ParleyServer } from '@parley/server';

const users: Record<string, string> = {
  'token-of-ada': 'ada',
  'token-of-bob': 'bob',
};

/** Stands in for your own authentication: a bearer token to a user id, or undefined. */
export function verifyToken(token: string | undefined): string | undefined {
  return token === undefined ? undefined : users[token];
}

export function createHandler(
  mcp: ParleyServer,
): (request: Request) => Promise<Response> {
  // #region auth
  return async (request) => {
    const token = request.headers
      .get('authorization')
      ?.replace(/^Bearer /, '');
    const user = verifyToken(token);
    if (user === undefined)
      return new Response('Unauthorized', { status: 401 });
    // The principal (clientId) is bound into every sealed state: another user's state won't open.
    return mcp.fetch(request, {
      authInfo: { token: token!, clientId: user, scopes: [] },
    });
  };
  // #endregion auth
}
