import {
  ParleyServer,
  elicitUrlRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';

// #region callback
/** Sign-ins your OAuth callback route has finished, by session id. */
const finishedSignIns = new Set<string>();

/** Called by your OAuth callback route when the provider redirects back. */
export function onSignInCallback(session: string): void {
  finishedSignIns.add(session);
}

const signInUrl = (session: string) =>
  `https://auth.example.com/connect?session=${session}`;
// #endregion callback

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Account Linker', ...options });

  // #region connect
  mcp.tool('connect_account', async (_args, ctx) => {
    if (ctx.era === 'handshake') {
      const session = crypto.randomUUID();
      const result = await ctx.elicitUrl(
        'Sign in to Example to continue',
        signInUrl(session),
      );
      if (result.action !== 'accept')
        return `Not connected (${result.action})`;
      if (!finishedSignIns.has(session))
        return 'Sign-in not finished; call again when done.';
      await result.data.complete(); // tells the client: notifications/elicitation/complete
      return 'Connected';
    }

    // Modern protocol: `accept` only says the user agreed to open the URL. The session id
    // travels in requestState (sealed), so the next round can check the sign-in finished.
    const session = ctx.requestState ?? crypto.randomUUID();
    const answer = ctx.answer('signIn', null);
    if (answer === undefined) {
      const signIn = elicitUrlRequest(
        'Sign in to Example to continue',
        signInUrl(session),
      );
      return inputRequired({
        inputRequests: { signIn },
        requestState: session,
      });
    }
    if (answer.action !== 'accept')
      return `Not connected (${answer.action})`;
    return finishedSignIns.has(session)
      ? 'Connected'
      : 'Sign-in not finished; call again when done.';
  });
  // #endregion connect

  return mcp;
}
