import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import {
  startAuthorizationServer,
  type AuthorizationServer,
} from '../../../test/integration/client/fixtures/authorizationServer.ts';
import { withOAuth, withToken } from '../client/auth.ts';
import { createProtectedServer } from '../client/protectedServer.ts';

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
