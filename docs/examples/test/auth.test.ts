import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import {
  startDpopServers,
  type DpopServers,
} from '../../../packages/client/test/helpers/dpopServers.ts';

import {
  startAuthorizationServer,
  type AuthorizationServer,
} from '../../../test/integration/client/fixtures/authorizationServer.ts';
import { withOAuth, withToken } from '../client/auth.ts';
import { createProtectedServer } from '../client/protectedServer.ts';
import {
  asWorkload,
  signedInWithDpop,
} from '../client/workloadIdentity.ts';

/** The client's auth examples against protected servers over real HTTP on 127.0.0.1. */

describe('a bearer token', () => {
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const server = createProtectedServer((token) =>
      token === 'token-of-ada'
        ? { token, clientId: 'ada', scopes: [] }
        : undefined,
    );
    const running = await server.run({ transport: 'http', port: 0 });
    url = running.url as string;
    close = running.close;
  });
  afterAll(() => close());

  test('is who the server sees', async () => {
    expect(await withToken(url, 'token-of-ada')).toBe('You are ada.');
  });

  test('a token it does not know is refused', async () => {
    await expect(withToken(url, 'token-of-nobody')).rejects.toThrow(
      'Unauthorized',
    );
  });
});

describe('OAuth', () => {
  let as: AuthorizationServer;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    as = await startAuthorizationServer({ user: 'grace', scopes: ['mcp'] });
    const running = await createProtectedServer(
      (token) => as.verify(token),
      as.issuer,
    ).run({
      transport: 'http',
      port: 0,
    });
    url = running.url as string;
    close = running.close;
  });
  afterAll(async () => {
    await close();
    await as.close();
  });

  /** The browser: follows the sign-in page's redirect to the loopback callback. */
  async function browser(authorizationUrl: URL): Promise<void> {
    const page = await fetch(authorizationUrl, { redirect: 'manual' });
    await fetch(page.headers.get('location') ?? '');
  }

  test('signs the user in once, through the loopback callback', async () => {
    as.log.length = 0;
    expect(await withOAuth(url, browser)).toBe('You are grace.');
    expect(as.log).toEqual([
      'register',
      'authorize',
      'token:authorization_code',
    ]);
  });
});

describe('workload identity and DPoP', () => {
  let servers: DpopServers;
  let dir: string;
  beforeAll(async () => {
    servers = await startDpopServers();
    dir = await mkdtemp(join(tmpdir(), 'parley-workload-'));
  });
  afterAll(async () => {
    await servers.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('a workload exchanges the token file’s JWT, with DPoP-bound tokens', async () => {
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, `${servers.behaviour.workloadToken}\n`);
    expect(await asWorkload(servers.mcpUrl, tokenFile)).toContain(
      'book_trip',
    );
    expect(servers.problems).toEqual([]);
    expect(servers.tokenRequests[0]?.form.grant_type).toBe(
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
    );
  });

  test('the user’s sign-in gets a DPoP-bound token', async () => {
    servers.reset();
    const signIn = async (authorizationUrl: URL) => {
      const page = await fetch(authorizationUrl, { redirect: 'manual' });
      return new URL(page.headers.get('location') ?? '');
    };
    const tools = await signedInWithDpop(
      servers.mcpUrl,
      'http://127.0.0.1:8765/callback',
      signIn,
    );
    expect(tools).toContain('book_trip');
    expect(servers.problems).toEqual([]);
    expect(
      servers.mcpRequests.filter((request) => request.scheme === 'DPoP')
        .length,
    ).toBeGreaterThan(0);
  });
});
