/**
 * An authorization server and an MCP server that take DPoP-bound tokens (RFC 9449), on two
 * ports of 127.0.0.1 (two origins, so each keeps its own nonce), for the client's DPoP and
 * workload identity tests. Every proof is checked here with WebCrypto, independently of the
 * client's code: the signature against the embedded key, `typ`, `alg`, `htm`, `htu`, `iat`, a
 * `jti` never seen before, `ath` against the token, the key's thumbprint against the one the
 * token was bound to, and the nonce when the server asks for one. The MCP endpoint behind the
 * checks is the raw SDK's server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createMcpHandler } from '@modelcontextprotocol/server';

import { buildSdkV2Server, freshSeen } from './sdkV2Server.ts';

export interface Proof {
  header: { typ?: string; alg?: string; jwk?: JsonWebKey };
  claims: { jti?: string; htm?: string; htu?: string; iat?: number; ath?: string; nonce?: string };
  /** The key's RFC 7638 thumbprint. */
  jkt: string;
}

/** How the servers behave, changeable between tests. */
export interface Behaviour {
  /** The authorization server wants a nonce: `once` (then takes it), `always` (takes none). */
  asNonce: 'off' | 'once' | 'always';
  rsNonce: 'off' | 'once' | 'always';
  /** The MCP server sends a fresh `DPoP-Nonce` on every answer and accepts only the latest. */
  rsRotates: boolean;
  /** Challenges come without a `DPoP-Nonce` header. */
  challengeWithoutNonce: boolean;
  /** The workload token the authorization server accepts. */
  workloadToken: string;
}

export interface TokenRequest {
  form: Record<string, string>;
  proof: Proof | undefined;
  status: number;
}

export interface McpRequest {
  method: string;
  scheme: string;
  proof: Proof | undefined;
  status: number;
}

export interface DpopServers {
  issuer: string;
  mcpUrl: string;
  behaviour: Behaviour;
  tokenRequests: TokenRequest[];
  mcpRequests: McpRequest[];
  /** Problems found in proofs, with what was wrong; empty when every proof was right. */
  problems: string[];
  reset(): void;
  close(): Promise<void>;
}

const b64url = (bytes: ArrayBuffer | Uint8Array): string =>
  Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('base64url');

async function sha256(text: string): Promise<string> {
  return b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

async function thumbprint(jwk: JsonWebKey): Promise<string> {
  return sha256(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }));
}

/** Verify a proof's signature and shape; the caller checks what depends on the request. */
async function readProof(jwt: string): Promise<Proof> {
  const [head = '', body = '', signature = ''] = jwt.split('.');
  const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as Proof['header'];
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Proof['claims'];
  if (header.typ !== 'dpop+jwt') throw new Error(`typ is ${header.typ}`);
  if (header.alg !== 'ES256' || header.jwk?.kty !== 'EC') throw new Error(`alg is ${header.alg}`);
  if ('d' in header.jwk) throw new Error('the jwk carries the private key');
  const key = await crypto.subtle.importKey(
    'jwk',
    header.jwk,
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['verify'],
  );
  const valid = await crypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    key,
    Buffer.from(signature, 'base64url'),
    new TextEncoder().encode(`${head}.${body}`),
  );
  if (!valid) throw new Error('the signature does not verify');
  return { header, claims, jkt: await thumbprint(header.jwk) };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startDpopServers(): Promise<DpopServers> {
  const as = createServer();
  const rs = createServer();
  const issuer = await listen(as);
  const origin = await listen(rs);
  const mcpUrl = `${origin}/mcp`;
  const tokenUrl = `${issuer}/token`;
  const handler = createMcpHandler(() => buildSdkV2Server(freshSeen()), { legacy: 'reject' });
  const bound = new Map<string, string>();
  const jtis = new Set<string>();
  let counter = 0;
  const fresh = (what: string) => `${what}-${++counter}`;
  let asNonce = fresh('as-nonce');
  let rsNonce = fresh('rs-nonce');
  let asChallenges = 0;
  let rsChallenges = 0;

  const servers: DpopServers = {
    issuer,
    mcpUrl,
    behaviour: defaultBehaviour(),
    tokenRequests: [],
    mcpRequests: [],
    problems: [],
    reset() {
      servers.behaviour = defaultBehaviour();
      servers.tokenRequests.length = 0;
      servers.mcpRequests.length = 0;
      servers.problems.length = 0;
      asChallenges = 0;
      rsChallenges = 0;
    },
    close: async () => {
      for (const server of [as, rs]) server.closeAllConnections();
      await Promise.all(
        [as, rs].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
    },
  };

  /** A proof checked against this request, or `undefined` (and a problem noted). */
  async function check(jwt: string | undefined, htm: string, htu: string, token?: string) {
    try {
      if (jwt === undefined) throw new Error('no DPoP header');
      const proof = await readProof(jwt);
      const { claims } = proof;
      if (claims.htm !== htm || claims.htu !== htu) {
        throw new Error(`htm/htu are ${claims.htm} ${claims.htu}, not ${htm} ${htu}`);
      }
      if (typeof claims.iat !== 'number' || Math.abs(claims.iat - Date.now() / 1000) > 60) {
        throw new Error(`iat ${claims.iat} is not now`);
      }
      if (typeof claims.jti !== 'string' || jtis.has(claims.jti)) {
        throw new Error(`jti ${claims.jti} is missing or used before`);
      }
      jtis.add(claims.jti);
      if (token === undefined ? claims.ath !== undefined : claims.ath !== (await sha256(token))) {
        throw new Error(`ath ${claims.ath} is wrong`);
      }
      if (token !== undefined && bound.get(token) !== proof.jkt) {
        throw new Error('the proof key is not the one the token is bound to');
      }
      return proof;
    } catch (error) {
      servers.problems.push(`${htm} ${htu}: ${(error as Error).message}`);
      return undefined;
    }
  }

  as.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
        return status;
      };
      if (req.method === 'GET' && req.url === '/.well-known/oauth-authorization-server') {
        json(200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: tokenUrl,
          registration_endpoint: `${issuer}/register`,
          response_types_supported: ['code'],
          grant_types_supported: [
            'authorization_code',
            'urn:ietf:params:oauth:grant-type:jwt-bearer',
          ],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          authorization_response_iss_parameter_supported: true,
          dpop_signing_alg_values_supported: ['ES256'],
        });
        return;
      }
      if (req.method === 'GET' && req.url?.startsWith('/authorize')) {
        const query = new URL(req.url, issuer).searchParams;
        const back = new URL(query.get('redirect_uri') ?? '');
        back.searchParams.set('code', 'the-code');
        back.searchParams.set('state', query.get('state') ?? '');
        back.searchParams.set('iss', issuer);
        res.writeHead(302, { location: back.href }).end();
        return;
      }
      if (req.method === 'POST' && req.url === '/register') {
        const metadata = JSON.parse((await readBody(req)).toString()) as object;
        json(201, { ...metadata, client_id: fresh('client') });
        return;
      }
      if (req.method !== 'POST' || req.url !== '/token') {
        json(404, {});
        return;
      }
      const form = Object.fromEntries(new URLSearchParams((await readBody(req)).toString()));
      const header = req.headers.dpop;
      const proof = await check(typeof header === 'string' ? header : undefined, 'POST', tokenUrl);
      const record: TokenRequest = { form, proof, status: 0 };
      servers.tokenRequests.push(record);
      const { behaviour } = servers;
      const wantsNonce =
        behaviour.asNonce === 'always' || (behaviour.asNonce === 'once' && asChallenges === 0);
      const refused = behaviour.asNonce === 'always' || proof?.claims.nonce !== asNonce;
      if (proof !== undefined && wantsNonce && refused) {
        asChallenges += 1;
        if (behaviour.asNonce === 'always') asNonce = fresh('as-nonce');
        record.status = json(
          400,
          { error: 'use_dpop_nonce', error_description: 'Use the nonce' },
          behaviour.challengeWithoutNonce ? {} : { 'DPoP-Nonce': asNonce },
        );
        return;
      }
      const grant = form.grant_type;
      if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
        if (form.assertion !== behaviour.workloadToken) {
          record.status = json(400, {
            error: 'invalid_grant',
            error_description: 'JWT assertion is expired',
          });
          return;
        }
      } else if (grant !== 'authorization_code' || form.code !== 'the-code') {
        record.status = json(400, { error: 'unsupported_grant_type' });
        return;
      }
      const token = fresh('token');
      if (proof !== undefined) bound.set(token, proof.jkt);
      record.status = json(200, {
        access_token: token,
        token_type: proof === undefined ? 'Bearer' : 'DPoP',
        expires_in: 3600,
      });
    })();
  });

  rs.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readBody(req);
      if (req.url === '/.well-known/oauth-protected-resource/mcp') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ resource: mcpUrl, authorization_servers: [issuer] }));
        return;
      }
      const { behaviour } = servers;
      const nonceHeader = (): Record<string, string> =>
        behaviour.challengeWithoutNonce ? {} : { 'DPoP-Nonce': rsNonce };
      // The nonce travels only with a nonce challenge (and, rotating, with every answer).
      const challenge = (error?: string) => {
        const params = `${error ? `error="${error}", ` : ''}resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
        const nonce = error === 'use_dpop_nonce' ? nonceHeader() : {};
        res.writeHead(401, { 'WWW-Authenticate': `DPoP ${params}`, ...nonce });
        res.end();
        return 401;
      };
      const [scheme = '', token = ''] = (req.headers.authorization ?? '').split(' ');
      const method = req.method ?? 'GET';
      const header = req.headers.dpop;
      const record: McpRequest = { method, scheme, proof: undefined, status: 0 };
      servers.mcpRequests.push(record);
      if (scheme === '') return void (record.status = challenge());
      record.proof = await check(
        typeof header === 'string' ? header : undefined,
        method,
        mcpUrl,
        token,
      );
      if (scheme !== 'DPoP' || record.proof === undefined) {
        return void (record.status = challenge('invalid_token'));
      }
      const wantsNonce =
        behaviour.rsRotates ||
        behaviour.rsNonce === 'always' ||
        (behaviour.rsNonce === 'once' && rsChallenges === 0);
      const refused = behaviour.rsNonce === 'always' || record.proof.claims.nonce !== rsNonce;
      if (wantsNonce && refused) {
        rsChallenges += 1;
        if (behaviour.rsNonce === 'always') rsNonce = fresh('rs-nonce');
        return void (record.status = challenge('use_dpop_nonce'));
      }
      if (behaviour.rsRotates) rsNonce = fresh('rs-nonce');
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      const response = await handler.fetch(
        new Request(`${origin}${req.url ?? '/'}`, {
          method,
          headers,
          ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
        }),
      );
      record.status = response.status;
      const out = Object.fromEntries(response.headers);
      res.writeHead(response.status, behaviour.rsRotates ? { ...out, ...nonceHeader() } : out);
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });

  return servers;
}

function defaultBehaviour(): Behaviour {
  return {
    asNonce: 'off',
    rsNonce: 'off',
    rsRotates: false,
    challengeWithoutNonce: false,
    workloadToken: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2lnbmF0dXJl',
  };
}
