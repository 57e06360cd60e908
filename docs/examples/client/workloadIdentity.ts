import { readFile } from 'node:fs/promises';

import {
  Client,
  createOAuthProvider,
  createWorkloadIdentityProvider,
} from '@parley/client';

/** A job with no user: its platform-issued identity token is its sign-in. */
export async function asWorkload(
  url: string,
  tokenFile: string,
): Promise<string[]> {
  // #region workload
  await using client = new Client(url, {
    auth: {
      oauth: createWorkloadIdentityProvider({
        clientId: 'nightly-report',
        // Read at each exchange: the platform rotates the file.
        token: () => readFile(tokenFile, 'utf8'),
        // Tokens bound to this process's key (DPoP).
        dpop: true,
      }),
    },
  });
  await client.connect();
  // #endregion workload
  return (await client.listTools()).map((tool) => tool.name);
}

/** The user's sign-in, with DPoP-bound tokens. */
export async function signedInWithDpop(
  url: string,
  redirectUrl: string,
  authorizationResponse: (url: URL) => Promise<URL>,
): Promise<string[]> {
  // #region dpop
  await using client = new Client(url, {
    auth: {
      oauth: createOAuthProvider({ redirectUrl, dpop: true }),
      authorizationResponse,
    },
  });
  // #endregion dpop
  await client.connect();
  return (await client.listTools()).map((tool) => tool.name);
}
