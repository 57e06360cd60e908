import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Client, createOAuthProvider } from '@parley/client';

/** Who the server says we are. */
async function whoami(client: Client): Promise<string> {
  const result = await client.callTool('whoami');
  return result.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
}

export async function withToken(
  url: string,
  token: string,
): Promise<string> {
  // #region bearer
  await using client = new Client(url, {
    // A string, or a function asked before every request: () => tokens.current()
    auth: { bearerToken: token },
    // Added to every request to the server (never to an authorization server).
    headers: { 'X-Tenant': 'acme' },
  });
  await client.connect();
  // #endregion bearer
  return await whoami(client); // before the client is disposed
}

export async function withOAuth(
  url: string,
  openBrowser: (url: URL) => Promise<void>,
): Promise<string> {
  // #region oauth
  const callback = await listenForCallback(); // 127.0.0.1, on a free port
  await using client = new Client(url, {
    auth: {
      oauth: createOAuthProvider({
        redirectUrl: callback.url,
        clientName: 'My MCP app',
      }),
      // The user has to sign in: send them there, resolve with where they came back.
      authorizationResponse: async (authorizationUrl) => {
        await openBrowser(authorizationUrl);
        return callback.next();
      },
    },
  });
  await client.connect(); // the first 401 starts the sign-in; connect() finishes after it
  // #endregion oauth
  try {
    return await whoami(client);
  } finally {
    await callback.close();
  }
}

// #region callback
/** The redirect back from the authorization server, received on a loopback port. */
export async function listenForCallback(): Promise<{
  url: string;
  next(): Promise<URL>;
  close(): Promise<void>;
}> {
  let arrived: (url: URL) => void = () => {};
  let next = new Promise<URL>((resolve) => (arrived = resolve));
  const server: Server = createServer((req, res) => {
    res.end('Signed in. You can close this tab.');
    arrived(new URL(req.url ?? '/', `http://${req.headers.host}`));
  });
  await new Promise<void>((resolve) =>
    server.listen(0, '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => {
      const current = next;
      next = new Promise<URL>((resolve) => (arrived = resolve));
      return current;
    },
    close: () =>
      new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
// #endregion callback
