import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import {
  Client,
  DpopNonceError,
  createOAuthProvider,
  createWorkloadIdentityProvider,
  type ClientAuth,
  type DpopOption,
} from '../src/index.ts';
import { startDpopServers, type DpopServers } from './helpers/dpopServers.ts';

/**
 * DPoP (RFC 9449 as MCP's SEP-1932 profiles it) over real HTTP on 127.0.0.1: an authorization
 * server and an MCP server (two origins) that check every proof with WebCrypto on their side
 * (see the helper). The client gets a DPoP-bound token and presents it with the `DPoP` scheme
 * and a fresh proof per request; it answers each server's nonce once, keeps every server's
 * newest nonce, and fails with `DpopNonceError` where a server keeps asking.
 */

let servers: DpopServers;

beforeAll(async () => {
  servers = await startDpopServers();
});
afterAll(() => servers.close());
beforeEach(() => servers.reset());

const workload = (dpop: DpopOption = true): ClientAuth => ({
  oauth: createWorkloadIdentityProvider({
    clientId: 'workload-1',
    token: servers.behaviour.workloadToken,
    dpop,
  }),
});

async function listAndCall(auth: ClientAuth): Promise<void> {
  await using client = new Client(servers.mcpUrl, { mode: 'modern', auth });
  await client.connect();
  expect((await client.listTools()).length).toBeGreaterThan(0);
  await client.callTool('scalar_output', {});
}

/** What connecting and listing fails with. */
async function failureOf(auth: ClientAuth): Promise<unknown> {
  await using client = new Client(servers.mcpUrl, { mode: 'modern', auth });
  return await client
    .connect()
    .then(() => client.listTools())
    .then(
      () => undefined,
      (error: unknown) => error,
    );
}

/** The MCP requests that carried the token (the first, unauthenticated one did not). */
const withToken = () => servers.mcpRequests.filter((request) => request.scheme !== '');

describe('proofs', () => {
  test('the token request and every MCP request carry a valid proof from one key; the token is sent with the DPoP scheme', async () => {
    await listAndCall(workload());
    expect(servers.problems).toEqual([]);

    const [token, ...more] = servers.tokenRequests;
    expect(more).toEqual([]);
    expect(token?.status).toBe(200);
    expect(token?.proof?.claims).toMatchObject({ htm: 'POST', htu: `${servers.issuer}/token` });
    expect(token?.proof?.claims.ath).toBeUndefined();

    const used = withToken();
    expect(used.length).toBeGreaterThanOrEqual(2);
    for (const request of used) {
      expect(request.scheme).toBe('DPoP');
      expect(request.status).toBeLessThan(300);
      expect(request.proof?.claims).toMatchObject({ htm: request.method, htu: servers.mcpUrl });
      expect(request.proof?.claims.ath).toMatch(/^[\w-]{43}$/);
      // One key for the client's life: the one the token is bound to.
      expect(request.proof?.jkt).toBe(token?.proof?.jkt);
    }
    const jtis = used.map((request) => request.proof?.claims.jti);
    expect(new Set(jtis).size).toBe(jtis.length);
  });

  test('a key pair of the host’s own signs the proofs', async () => {
    const keyPair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ]);
    const jwk = await crypto.subtle.exportKey('jwk', keyPair.publicKey);
    await listAndCall(workload({ keyPair }));
    expect(servers.problems).toEqual([]);
    for (const proof of [servers.tokenRequests[0]?.proof, withToken()[0]?.proof]) {
      expect(proof?.header.jwk).toEqual({ crv: 'P-256', kty: 'EC', x: jwk.x, y: jwk.y });
    }
  });

  test('without dpop no proof is made and the token is a bearer token', async () => {
    // This server takes DPoP-bound tokens only, so the bearer token is refused.
    expect(await failureOf(workload(false))).toBeInstanceOf(Error);
    expect(servers.tokenRequests[0]?.proof).toBeUndefined();
    expect(servers.problems).toContain(`POST ${servers.issuer}/token: no DPoP header`);
    expect(withToken().map((request) => request.scheme)).toContain('Bearer');
  });
});

describe('nonces', () => {
  test('each server’s nonce challenge is answered once, with the nonce it gave', async () => {
    servers.behaviour.asNonce = 'once';
    servers.behaviour.rsNonce = 'once';
    await listAndCall(workload());
    expect(servers.problems).toEqual([]);
    expect(servers.tokenRequests.map((request) => request.status)).toEqual([400, 200]);
    expect(servers.tokenRequests[0]?.proof?.claims.nonce).toBeUndefined();
    expect(servers.tokenRequests[1]?.proof?.claims.nonce).toMatch(/^as-nonce-/);
    const used = withToken();
    expect(used[0]?.status).toBe(401);
    expect(used[1]?.proof?.claims.nonce).toMatch(/^rs-nonce-/);
    expect(used.slice(1).every((request) => request.status < 300)).toBe(true);
    // Nonces are per server: the MCP server never saw the authorization server's.
    expect(used.some((request) => request.proof?.claims.nonce?.startsWith('as-'))).toBe(false);
  });

  test('the newest nonce from every answer is used, so a rotating server challenges once', async () => {
    servers.behaviour.rsRotates = true;
    await listAndCall(workload());
    expect(servers.problems).toEqual([]);
    const used = withToken();
    expect(used.filter((request) => request.status === 401)).toHaveLength(1);
    expect(used.length).toBeGreaterThanOrEqual(3);
  });

  test('an MCP server that keeps asking for a nonce: one retry, then DpopNonceError', async () => {
    servers.behaviour.rsNonce = 'always';
    const error = await failureOf(workload());
    expect(error).toBeInstanceOf(DpopNonceError);
    expect((error as DpopNonceError).data).toEqual({ url: servers.mcpUrl, server: 'MCP server' });
    expect((error as Error).message).toContain(`the MCP server at ${servers.mcpUrl}`);
    expect(withToken().map((request) => request.status)).toEqual([401, 401]);
    // Not mistaken for a bad token: no new sign-in.
    expect(servers.tokenRequests).toHaveLength(1);
  });

  test('an authorization server that keeps asking for a nonce: one retry, then DpopNonceError', async () => {
    servers.behaviour.asNonce = 'always';
    const error = await failureOf(workload());
    expect(error).toBeInstanceOf(DpopNonceError);
    expect((error as DpopNonceError).data?.server).toBe('authorization server');
    expect((error as Error).message).toContain(`${servers.issuer}/token`);
    expect(servers.tokenRequests.map((request) => request.status)).toEqual([400, 400]);
  });

  test('a nonce challenge without a nonce fails at once with DpopNonceError', async () => {
    servers.behaviour.rsNonce = 'always';
    servers.behaviour.challengeWithoutNonce = true;
    const error = await failureOf(workload());
    expect(error).toBeInstanceOf(DpopNonceError);
    expect((error as Error).message).toContain('without giving one');
    expect(withToken()).toHaveLength(1);
  });
});

describe('the user’s sign-in with DPoP', () => {
  test('the code exchange carries a proof and the token is DPoP-bound', async () => {
    const auth: ClientAuth = {
      oauth: createOAuthProvider({
        redirectUrl: 'http://127.0.0.1:8765/callback',
        clientInformation: { client_id: 'app', redirect_uris: ['http://127.0.0.1:8765/callback'] },
        dpop: true,
      }),
      authorizationResponse: async (url) => {
        const response = await fetch(url, { redirect: 'manual' });
        return new URL(response.headers.get('location') ?? '');
      },
    };
    await listAndCall(auth);
    expect(servers.problems).toEqual([]);
    expect(servers.tokenRequests.map((request) => request.form.grant_type)).toEqual([
      'authorization_code',
    ]);
    expect(servers.tokenRequests[0]?.proof?.claims.htm).toBe('POST');
    expect(withToken().every((request) => request.scheme === 'DPoP')).toBe(true);
  });
});

describe('keys that cannot sign proofs', () => {
  const api = (dpop: unknown) => () =>
    createOAuthProvider({ redirectUrl: 'http://127.0.0.1/cb', dpop: dpop as DpopOption });

  test('refused when the provider is made', async () => {
    const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    expect(api('yes')).toThrow(/createOAuthProvider: dpop must be true, false or \{ keyPair \}/);
    expect(api({ keyPair: { privateKey: hmac, publicKey: hmac } })).toThrow(
      /dpop.keyPair.privateKey must be a WebCrypto private key/,
    );
    const rsa = await crypto.subtle.generateKey(
      {
        name: 'RSA-OAEP',
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      },
      false,
      ['decrypt', 'encrypt'],
    );
    expect(api({ keyPair: rsa })).toThrow(/must be usable to sign/);
    expect(api({ keyPair: rsa, algorithm: 'ES256' })).toThrow(
      /options\.dpop\.algorithm is not an option/,
    );
  });

  test('a private and public key that are not one pair: a TypeError at the first proof', async () => {
    const make = () =>
      crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const [one, other] = await Promise.all([make(), make()]);
    const keyPair = { privateKey: one.privateKey, publicKey: other.publicKey };
    await using client = new Client(servers.mcpUrl, {
      mode: 'modern',
      auth: workload({ keyPair }),
    });
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain('they are not one pair');
    expect(servers.tokenRequests).toEqual([]);
  });
});
