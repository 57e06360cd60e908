import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import {
  Client,
  WorkloadIdentityError,
  createWorkloadIdentityProvider,
  type WorkloadIdentityOptions,
} from '../src/index.ts';
import { startDpopServers, type DpopServers } from './helpers/dpopServers.ts';

/**
 * The JWT-bearer grant for workload identity (RFC 7523, SEP-1933) over real HTTP on 127.0.0.1,
 * against the authorization server of the DPoP tests (it takes one workload token and refuses
 * any other with `invalid_grant`).
 */

let servers: DpopServers;

beforeAll(async () => {
  servers = await startDpopServers();
});
afterAll(() => servers.close());
beforeEach(() => servers.reset());

async function connectAndList(options: Partial<WorkloadIdentityOptions>): Promise<unknown> {
  await using client = new Client(servers.mcpUrl, {
    mode: 'modern',
    auth: {
      oauth: createWorkloadIdentityProvider({
        clientId: 'workload-1',
        token: servers.behaviour.workloadToken,
        dpop: true,
        ...options,
      }),
    },
  });
  return await client
    .connect()
    .then(() => client.listTools())
    .then(
      (tools) => tools.length,
      (error: unknown) => error,
    );
}

describe('the exchange', () => {
  test('the workload token is exchanged with the JWT-bearer grant, no browser, no registration', async () => {
    expect(await connectAndList({ scope: 'tools:read' })).toBeGreaterThan(0);
    expect(servers.tokenRequests.map((request) => request.form)).toEqual([
      {
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: servers.behaviour.workloadToken,
        scope: 'tools:read',
        client_id: 'workload-1',
        resource: servers.mcpUrl,
      },
    ]);
  });

  test('a function is asked for the token at each exchange; what it reads is trimmed', async () => {
    let reads = 0;
    const token = async () => {
      reads += 1;
      return `${servers.behaviour.workloadToken}\n`; // as a projected token file ends
    };
    expect(await connectAndList({ token })).toBeGreaterThan(0);
    expect(reads).toBe(1);
    expect(servers.tokenRequests[0]?.form.assertion).toBe(servers.behaviour.workloadToken);
  });
});

describe('failures', () => {
  test('a refused grant fails with the server’s reason and is not sent again, nor another grant tried', async () => {
    const expired = 'eyJhbGciOiJSUzI1NiJ9.eyJleHAiOjF9.c2ln';
    const error = await connectAndList({ token: expired });
    expect(error).toBeInstanceOf(WorkloadIdentityError);
    expect((error as WorkloadIdentityError).data).toEqual({
      tokenEndpoint: `${servers.issuer}/token`,
      error: 'invalid_grant',
    });
    expect((error as Error).message).toBe(
      `Workload identity: the authorization server at ${servers.issuer}/token refused the JWT-bearer grant (invalid_grant: JWT assertion is expired); it is not sent again.`,
    );
    expect(servers.tokenRequests).toHaveLength(1);
  });

  test('after a refusal, the next connection tries again with what the source gives then', async () => {
    let current = 'eyJhbGciOiJSUzI1NiJ9.eyJleHAiOjF9.c2ln';
    const provider = createWorkloadIdentityProvider({
      clientId: 'workload-1',
      token: () => current,
      dpop: true,
    });
    const connect = async () => {
      await using client = new Client(servers.mcpUrl, {
        mode: 'modern',
        auth: { oauth: provider },
      });
      await client.connect();
      return (await client.listTools()).length;
    };
    await expect(connect()).rejects.toBeInstanceOf(WorkloadIdentityError);
    current = servers.behaviour.workloadToken; // the platform rotated the token
    expect(await connect()).toBeGreaterThan(0);
    expect(servers.tokenRequests.map((request) => request.status)).toEqual([400, 200]);
  });

  test('a token source that throws, or gives no JWT, fails with WorkloadIdentityError before any request', async () => {
    const unreadable = await connectAndList({
      token: () => {
        throw new Error('ENOENT: /var/run/secrets/token');
      },
    });
    expect(unreadable).toBeInstanceOf(WorkloadIdentityError);
    expect((unreadable as Error).message).toBe(
      'Workload identity: reading the token failed: ENOENT: /var/run/secrets/token',
    );
    const notJwt = await connectAndList({ token: async () => 'not a jwt' });
    expect((notJwt as Error).message).toContain('the token is not a JWT');
    const empty = await connectAndList({ token: async () => '' });
    expect((empty as Error).message).toContain('gave no token');
    expect(servers.tokenRequests).toEqual([]);
  });

  test('bad options are a TypeError naming the API', () => {
    const make = (options: unknown) => () =>
      createWorkloadIdentityProvider(options as WorkloadIdentityOptions);
    const token = servers.behaviour.workloadToken;
    expect(make({ token })).toThrow('createWorkloadIdentityProvider: clientId must be');
    expect(make({ clientId: 'w', token: 'abc' })).toThrow('token must be a JWT');
    expect(make({ clientId: 'w', token: 42 })).toThrow('token must be the JWT or a function');
    expect(make({ clientId: 'w', token, scope: ['a'] })).toThrow('scope must be a string');
    expect(make({ clientId: 'w', token, dpop: 'yes' })).toThrow('dpop must be true, false');
    expect(make({ clientId: 'w', token, tokenFile: '/x' })).toThrow(/tokenFile/);
  });
});
