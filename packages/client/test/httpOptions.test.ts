import { describe, expect, test } from 'vitest';

import { Client, createOAuthProvider } from '../src/index.ts';

/** `auth`, `headers` and `fetch` are checked when the client is made, with errors that say why. */

const url = 'http://127.0.0.1:1/mcp';
const provider = createOAuthProvider({ redirectUrl: 'http://127.0.0.1:8765/callback' });

describe('Client options for HTTP', () => {
  test.each([
    [{ auth: 'token' }, /auth must be \{ bearerToken \} or \{ oauth/],
    [{ auth: { bearerToken: '' } }, /bearerToken must be a non-empty token without spaces/],
    [{ auth: { bearerToken: 'two words' } }, /without spaces/],
    [{ auth: { bearerToken: 42 } }, /bearerToken must be a string or a function/],
    [{ auth: { oauth: {} } }, /auth\.oauth must be an OAuthClientProvider/],
    [{ auth: { oauth: provider, bearerToken: 'x' } }, /bearerToken or oauth, not both/],
    [
      { auth: { oauth: provider, authorizationResponse: 'x' } },
      /authorizationResponse must be a function/,
    ],
    [{ headers: { 'bad name': 'x' } }, /"bad name" is not a header name/],
    [
      { headers: { Authorization: 'Bearer x' } },
      /'Authorization' is set by the client itself \(use auth/,
    ],
    [{ headers: { 'Mcp-Session-Id': 'x' } }, /'Mcp-Session-Id' is set by the client itself/],
    [{ headers: { 'X-Ok': 'a\r\nX-Injected: b' } }, /without line breaks/],
    [{ fetch: 'fetch' }, /fetch must be a function/],
  ])('%j is refused', (options, message) => {
    expect(() => new Client(url, options as never)).toThrow(TypeError);
    expect(() => new Client(url, options as never)).toThrow(message);
  });

  test('they apply to HTTP targets only', () => {
    expect(
      () =>
        new Client({ command: 'node' }, { auth: { bearerToken: 'x' }, headers: { 'X-A': 'b' } }),
    ).toThrow('Client: auth, headers apply to HTTP targets only; this target is a stdio command.');
  });

  test('createOAuthProvider checks what it is given', () => {
    expect(() => createOAuthProvider({ redirectUrl: 'callback' })).toThrow(
      /redirectUrl must be an absolute URL/,
    );
    expect(() =>
      createOAuthProvider({ redirectUrl: url, clientMetadataUrl: 'http://app.example/c.json' }),
    ).toThrow(/clientMetadataUrl must be an https URL with a path/);
  });

  test('createOAuthProvider keeps registrations per authorization server', async () => {
    const oauth = createOAuthProvider({ redirectUrl: url, clientName: 'Test app' });
    expect(oauth.clientMetadata).toMatchObject({ client_name: 'Test app', redirect_uris: [url] });
    await oauth.saveClientInformation?.({ client_id: 'a' }, { issuer: 'https://as-1.example' });
    expect(await oauth.clientInformation({ issuer: 'https://as-1.example' })).toEqual({
      client_id: 'a',
    });
    expect(await oauth.clientInformation({ issuer: 'https://as-2.example' })).toBeUndefined();
  });
});
