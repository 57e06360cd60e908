import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as z from 'zod';

import { ParleyServer, elicitRequest, inputRequired, type RunningServer } from '../src/index.ts';

/**
 * `http.auth`: a Parley server that requires a principal. Every request carries a bearer token
 * that `verifyToken` turns into the principal, or is refused with the OAuth challenge; the
 * protected resource metadata the challenge names is served beside the endpoint; the principal
 * binds sealed state and handshake sessions. Over a real socket on 127.0.0.1.
 */

const principals: Record<string, AuthInfo> = {
  'token-ada': { token: 'token-ada', clientId: 'ada', scopes: ['mcp', 'admin'] },
  'token-bob': { token: 'token-bob', clientId: 'bob', scopes: ['mcp'] },
  'token-old': { token: 'token-old', clientId: 'old', scopes: ['mcp'], expiresAt: 1 },
  'token-narrow': { token: 'token-narrow', clientId: 'cy', scopes: [] },
};
const reported: unknown[] = [];

function buildServer(): ParleyServer {
  const mcp = new ParleyServer({
    name: 'auth-test',
    http: {
      auth: {
        verifyToken: (token) => {
          if (token === 'token-broken') throw new Error('directory unavailable');
          if (token === 'token-revoked') {
            throw new OAuthError(OAuthErrorCode.InvalidToken, 'The token was revoked');
          }
          return principals[token];
        },
        requiredScopes: ['mcp'],
        authorizationServers: ['https://auth.example.com'],
        scopesSupported: ['mcp', 'admin'],
        resourceName: 'Auth test',
      },
    },
    onError: (error) => reported.push(error),
  });
  const askName = elicitRequest('Name?', z.object({ name: z.string() }));
  mcp.tool('whoami', {}, (_args, ctx) => `you are ${ctx.requestContext.principal ?? 'nobody'}`);
  mcp.tool('greet', {}, (_args, ctx) => {
    const name = ctx.answer('name', askName);
    if (name === undefined) return inputRequired({ inputRequests: { name: askName } });
    return name.action === 'accept' ? `Hello ${name.data.name}` : 'no name';
  });
  return mcp;
}

let running: RunningServer;
let url: string;
let metadataUrl: string;

beforeAll(async () => {
  running = await buildServer().run({ transport: 'http', port: 0 });
  url = running.url as string;
  metadataUrl = url.replace('/mcp', '/.well-known/oauth-protected-resource/mcp');
});
afterAll(() => running.close());

const discover = (token?: string): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });

describe('refusals carry the OAuth challenge', () => {
  test.each([
    ['no token', undefined, 'A bearer token is required'],
    ['an unknown token', 'token-nobody', 'The token is not valid here'],
    ['an expired token', 'token-old', 'The token has expired'],
    ['a token the verifier rejects', 'token-revoked', 'The token was revoked'],
  ])('%s: 401 invalid_token naming the metadata', async (_case, token, description) => {
    const response = await discover(token);
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(`resource_metadata="${metadataUrl}"`);
    expect(await response.json()).toEqual({
      error: 'invalid_token',
      error_description: description,
    });
  });

  test('a token without a required scope: 403 insufficient_scope with the scope', async () => {
    const response = await discover('token-narrow');
    expect(response.status).toBe(403);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="mcp"');
  });

  test('a verifier that crashes is reported and refuses with 401, never a 5xx', async () => {
    reported.length = 0;
    const response = await discover('token-broken');
    expect(response.status).toBe(401);
    expect((await response.json()).error_description).toBe('The token could not be verified');
    expect(String(reported[0])).toContain('directory unavailable');
  });

  test('a malformed Authorization header is refused, not passed on', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Basic YWRhOnB3' },
      body: '{}',
    });
    expect(response.status).toBe(401);
  });
});

describe('protected resource metadata (RFC 9728)', () => {
  test('is served beside the endpoint, without a token', async () => {
    const response = await fetch(metadataUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      resource: url,
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['mcp', 'admin'],
      bearer_methods_supported: ['header'],
      resource_name: 'Auth test',
    });
  });

  test('only GET', async () => {
    expect((await fetch(metadataUrl, { method: 'POST', body: '{}' })).status).toBe(405);
  });
});

describe('the principal', () => {
  async function connect(token: string, era: 'modern' | 'handshake') {
    const client = new Client(
      { name: 'auth-test', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      authProvider: { token: async () => token },
    });
    await client.connect(transport);
    return { client, transport };
  }

  test.each(['modern', 'handshake'] as const)(
    '%s: reaches the handler as requestContext.principal',
    async (era) => {
      const { client } = await connect('token-ada', era);
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      expect((result.content as { text: string }[])[0]?.text).toBe('you are ada');
      await client.close();
    },
  );

  test('modern: state sealed for one principal does not open for another', async () => {
    const round = async (token: string, params: Record<string, unknown>) =>
      (
        await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'greet',
            authorization: `Bearer ${token}`,
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 7,
            method: 'tools/call',
            params: {
              name: 'greet',
              arguments: {},
              ...params,
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
              },
            },
          }),
        })
      ).json() as Promise<{
        result?: { requestState?: string; content?: { text: string }[] };
        error?: { message: string };
      }>;
    const first = await round('token-ada', {});
    const requestState = first.result?.requestState;
    expect(typeof requestState).toBe('string');
    const answer = { inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } };
    const own = await round('token-ada', { ...answer, requestState });
    expect(own.result?.content?.[0]?.text).toBe('Hello Ada');
    const stolen = await round('token-bob', { ...answer, requestState });
    expect(stolen.error?.message).toBe('Invalid or expired requestState');
  });

  test("handshake: a session is its opener's; another principal's token cannot use it", async () => {
    const { transport } = await connect('token-ada', 'handshake');
    const sessionId = transport.sessionId as string;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
        authorization: 'Bearer token-bob',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(404);
    await transport.close();
  });
});

describe('configuration mistakes are TypeErrors that say what is wrong', () => {
  const refuseAll = (): undefined => undefined;
  test.each([
    [{}, /http\.auth needs verifyToken/],
    [{ verifyToken: refuseAll, authorizationServers: [] }, /authorizationServers must be/],
    [{ verifyToken: refuseAll, requiredScopes: [''] }, /requiredScopes must be/],
    [{ verifyToken: refuseAll, resourceUrl: 'not a url' }, /resourceUrl must be/],
  ])('%j, when the server is made', async (auth, message) => {
    expect(() => new ParleyServer({ name: 'x', http: { auth: auth as never } })).toThrow(message);
    // …and in run()'s own options.
    const mcp = new ParleyServer({ name: 'x' });
    await expect(mcp.run({ transport: 'http', port: 0, auth: auth as never })).rejects.toThrow(
      message,
    );
  });
});
