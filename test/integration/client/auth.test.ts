import { IssuerMismatchError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as z from 'zod';

import {
  Client,
  UnauthorizedError,
  createOAuthProvider,
  type ClientOptions,
  type FetchLike,
} from '@parley/client';
import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type HttpAuthOptions,
  type RunningServer,
} from '@parley/server';

import {
  startAuthorizationServer,
  type AuthorizationServer,
} from './fixtures/authorizationServer.ts';

/**
 * The Parley client against Parley servers that require a principal, over real HTTP on
 * 127.0.0.1, in both eras: one protected with OAuth (its own authorization server, the client
 * signing in through discovery, registration, PKCE and the code exchange), one with fixed bearer
 * tokens. The principal the server sees is the user who signed in, and it carries through a
 * multi-round call.
 */

/** A tool that tells who called, and one that asks first (each era its own way). */
function protectedServer(name: string, auth: HttpAuthOptions): ParleyServer {
  const mcp = new ParleyServer({ name, http: { auth }, onError: () => {} });
  mcp.tool('whoami', {}, (_args, ctx) => `signed in as ${ctx.requestContext.principal}`);
  const askCity = elicitRequest('Which city?', z.object({ city: z.string() }));
  mcp.tool('book', {}, async (_args, ctx) => {
    const who = ctx.requestContext.principal;
    if (ctx.era === 'handshake') {
      const answer = await ctx.elicit('Which city?', z.object({ city: z.string() }));
      return answer.action === 'accept' ? `${who} booked ${answer.data.city}` : 'nothing booked';
    }
    const answer = ctx.answer('city', askCity);
    if (answer === undefined) return inputRequired({ inputRequests: { city: askCity } });
    return answer.action === 'accept' ? `${who} booked ${answer.data.city}` : 'nothing booked';
  });
  return mcp;
}

const textOf = (result: { content: unknown[] }): string =>
  result.content.map((block) => (block as { text?: string }).text ?? '').join('');

const pickCity: ClientOptions['elicitationHandler'] = (_message, responseType) =>
  responseType({ city: 'Lisbon' });

/** The user at the browser: follows the authorization URL and lands on the redirect. */
async function signInAtOnce(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (location === null) throw new Error(`no redirect from the authorization server`);
  return new URL(location);
}

describe('OAuth: a server that points to its authorization server', () => {
  let as: AuthorizationServer;
  let running: RunningServer;
  let url: string;

  beforeAll(async () => {
    as = await startAuthorizationServer({ user: 'ada', scopes: ['mcp'] });
    running = await protectedServer('oauth-protected', {
      verifyToken: (token) => as.verify(token),
      requiredScopes: ['mcp'],
      authorizationServers: [as.issuer],
      scopesSupported: ['mcp'],
    }).run({ transport: 'http', port: 0 });
    url = running.url as string;
  });
  afterAll(async () => {
    await running.close();
    await as.close();
  });

  describe.each(['modern', 'handshake'] as const)('%s era', (mode) => {
    test('the first request signs the user in; calls, asks included, run as that user', async () => {
      as.log.length = 0;
      const authorizationUrls: URL[] = [];
      await using client = new Client(url, {
        mode,
        elicitationHandler: pickCity,
        auth: {
          oauth: createOAuthProvider({ redirectUrl: 'http://127.0.0.1:8765/callback' }),
          authorizationResponse: (authorizationUrl) => {
            authorizationUrls.push(authorizationUrl);
            return signInAtOnce(authorizationUrl);
          },
        },
      });
      await client.connect();
      expect(client.era).toBe(mode);
      expect(textOf(await client.callTool('whoami'))).toBe('signed in as ada');
      expect(textOf(await client.callTool('book'))).toBe('ada booked Lisbon');
      // One sign-in: registration, the user at the authorization endpoint, the code exchange.
      expect(as.log).toEqual(['register', 'authorize', 'token:authorization_code']);
      expect(authorizationUrls).toHaveLength(1);
      const sent = authorizationUrls[0]?.searchParams;
      expect(sent?.get('code_challenge_method')).toBe('S256');
      expect(sent?.get('scope')).toBe('mcp');
      expect(sent?.get('resource')).toBe(url);
      expect(sent?.get('state')).toMatch(/.+/);
    });

    test('an access token that expired is refreshed, without the user', async () => {
      await using client = new Client(url, {
        mode,
        auth: {
          oauth: createOAuthProvider({ redirectUrl: 'http://127.0.0.1:8765/callback' }),
          authorizationResponse: signInAtOnce,
        },
      });
      await client.connect();
      as.log.length = 0;
      as.expireAccessTokens();
      expect(textOf(await client.callTool('whoami'))).toBe('signed in as ada');
      expect(as.log).toEqual(['token:refresh_token']);
    });
  });

  test.each(['modern', 'handshake'] as const)(
    '%s: a redirect whose state does not match is not used',
    async (mode) => {
      await using client = new Client(url, {
        mode,
        auth: {
          oauth: createOAuthProvider({ redirectUrl: 'http://127.0.0.1:8765/callback' }),
          authorizationResponse: async (authorizationUrl) => {
            const back = await signInAtOnce(authorizationUrl);
            back.searchParams.set('state', 'forged');
            return back;
          },
        },
      });
      const error = await client.connect().catch((e: unknown) => e);
      // The sign-in's own error, in every mode (not the version probe's wrapper).
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as Error).message).toContain('does not carry the state this sign-in sent');
    },
  );

  test.each(['modern', 'handshake'] as const)(
    '%s: a response from another issuer is refused with the SDK error that says so',
    async (mode) => {
      await using client = new Client(url, {
        mode,
        auth: {
          oauth: createOAuthProvider({ redirectUrl: 'http://127.0.0.1:8765/callback' }),
          authorizationResponse: async (authorizationUrl) => {
            const back = await signInAtOnce(authorizationUrl);
            back.searchParams.set('iss', 'https://evil.example');
            return back;
          },
        },
      });
      const error = await client.connect().catch((e: unknown) => e);
      // The sign-in's own error in every mode, not the version probe's wrapper around it.
      expect(error).toBeInstanceOf(IssuerMismatchError);
      expect((error as Error).message).toContain('https://evil.example');
    },
  );

  test('without authorizationResponse the request fails with UnauthorizedError', async () => {
    await using client = new Client(url, {
      mode: 'handshake',
      auth: { oauth: createOAuthProvider({ redirectUrl: 'http://127.0.0.1:8765/callback' }) },
    });
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toContain('no authorizationResponse');
  });
});

describe('bearer tokens, extra headers, a custom fetch', () => {
  const tokens: Record<string, string> = { 'secret-ada': 'ada', 'secret-bob': 'bob' };
  const seenTenants: (string | null)[] = [];
  let running: RunningServer;
  let url: string;

  beforeAll(async () => {
    running = await protectedServer('bearer-protected', {
      verifyToken: (token, request) => {
        seenTenants.push(request.headers.get('x-tenant'));
        const user = tokens[token];
        return user === undefined ? undefined : { token, clientId: user, scopes: [] };
      },
    }).run({ transport: 'http', port: 0 });
    url = running.url as string;
  });
  afterAll(() => running.close());

  describe.each(['modern', 'handshake'] as const)('%s era', (mode) => {
    test('the token is the principal, through every round', async () => {
      await using client = new Client(url, {
        mode,
        elicitationHandler: pickCity,
        auth: { bearerToken: 'secret-ada' },
      });
      await client.connect();
      expect(client.era).toBe(mode);
      expect(textOf(await client.callTool('whoami'))).toBe('signed in as ada');
      expect(textOf(await client.callTool('book'))).toBe('ada booked Lisbon');
    });

    test('a function is asked for the token before each request', async () => {
      let asked = 0;
      await using client = new Client(url, {
        mode,
        auth: {
          bearerToken: () => {
            asked += 1;
            return 'secret-bob';
          },
        },
      });
      await client.connect();
      expect(textOf(await client.callTool('whoami'))).toBe('signed in as bob');
      expect(asked).toBeGreaterThanOrEqual(2);
    });

    test('a token the server refuses fails the connection with UnauthorizedError', async () => {
      await using client = new Client(url, { mode, auth: { bearerToken: 'stolen' } });
      await expect(client.connect()).rejects.toBeInstanceOf(UnauthorizedError);
    });

    test('extra headers reach the server; every request goes through the custom fetch', async () => {
      seenTenants.length = 0;
      const fetched: string[] = [];
      const countingFetch: FetchLike = (input, init) => {
        fetched.push(String(init?.method ?? 'GET'));
        return fetch(input, init);
      };
      await using client = new Client(url, {
        mode,
        auth: { bearerToken: 'secret-ada' },
        headers: { 'X-Tenant': 'acme' },
        fetch: countingFetch,
      });
      await client.connect();
      await client.callTool('whoami');
      expect(seenTenants.length).toBeGreaterThan(0);
      expect(new Set(seenTenants)).toEqual(new Set(['acme']));
      expect(fetched.length).toBe(seenTenants.length);
    });
  });
});
