import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Accounts', ...options });

  // #region declare
  const askCredentials = elicitRequest(
    'Sign in to your account',
    z.object({ username: z.string(), password: z.string() }),
  );

  // Declared: compiled and linted now, at registration, not at the first call.
  mcp.tool(
    'login',
    { asks: { credentials: askCredentials } },
    async (_args, ctx) => {
      const login = await ctx.ask('credentials', askCredentials);
      return login.action === 'accept'
        ? `Signed in as ${login.data.username}`
        : 'Not signed in';
    },
  );
  // #endregion declare

  return mcp;
}
