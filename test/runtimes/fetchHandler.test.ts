import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client, type InProcessServer } from '@parley/client';
import { generateKey } from '@parley/state-sealing';

import { createTripPlanner } from '../../docs/examples/deployment/edge/tripPlanner.ts';
import {
  bundleWorker,
  commandOf,
  startRuntime,
  wranglerConfig,
  type RunningRuntime,
} from './runtimes.ts';

/**
 * A three-round flow through `mcp.fetch()` on every runtime the fetch handler claims, and
 * across them: round 1 sealed on one runtime is opened on the next, and so on. Node's own leg
 * is this process (Node 20), calling the fetch handler directly.
 */

type Name = 'node' | 'bun' | 'deno' | 'workerd';
const keys = [generateKey()];
interface Leg {
  version: string;
  /** What the runtime's server writes into the state as the runtime that served a round. */
  label: string;
  fetch: (request: Request) => Promise<Response>;
}
const legs = {} as Record<Name, Leg>;
const processes: RunningRuntime[] = [];
let workerBytes = 0;

beforeAll(async () => {
  const nodeVersion = `node ${process.versions.node}`;
  const node = createTripPlanner(keys, nodeVersion);
  legs.node = { version: nodeVersion, label: nodeVersion, fetch: (request) => node.fetch(request) };
  const worker = await bundleWorker();
  workerBytes = worker.bytes;
  // workerd loads no `node:*` module without `nodejs_compat`, which the guide's Worker goes without.
  expect(worker.nodeImports).toEqual([]);
  expect(worker.main).toBe('worker.ts');
  expect(wranglerConfig().flags).toEqual([]);
  try {
    const [bun, deno, workerd] = await Promise.all([
      startRuntime(commandOf('bun'), keys),
      startRuntime(commandOf('deno'), keys),
      startRuntime(commandOf('workerd', worker.path), keys),
    ]);
    processes.push(bun, deno, workerd);
    for (const [name, running] of [
      ['bun', bun],
      ['deno', deno],
      ['workerd', workerd],
    ] as const) {
      legs[name] = {
        version: running.version,
        // workerd cannot tell its own version from inside a Worker.
        label: name === 'workerd' ? 'workerd' : running.version,
        // A real HTTP request to the runtime's own server.
        fetch: (request) => fetch(new Request(running.url, request)),
      };
    }
  } finally {
    worker.dispose();
  }
  console.log(
    [
      'Runtimes serving mcp.fetch():',
      `  ${legs.node.version} (this process)`,
      ...processes.map(
        (p) => `  ${p.version}${p.detail ? ` (${p.detail})` : ''}, listening after ${p.startMs} ms`,
      ),
      `  (Worker bundle: ${(workerBytes / 1024).toFixed(0)} KiB, no nodejs_compat)`,
    ].join('\n'),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
});

/** A load balancer of sorts: the `i`-th round of the call goes to `route[i]`. */
function across(route: Name[]): InProcessServer {
  let round = 0;
  return {
    fetch(request) {
      const leg =
        request.headers.get('mcp-method') === 'tools/call'
          ? route[Math.min(round++, route.length - 1)]!
          : route[0]!;
      return legs[leg].fetch(request);
    },
    connect: () => Promise.reject(new Error('serverless: no sessions')),
  };
}

async function planTrip(route: Name[]): Promise<string> {
  await using client = new Client(across(route), {
    mode: 'modern',
    elicitationHandler: (message, responseType) =>
      message === 'Where to?'
        ? responseType({ destination: 'Lisbon' })
        : responseType({ nights: 3 }),
  });
  await client.connect();
  return (await client.callTool<string>('plan_trip')).data!;
}

const served = (route: Name[]) =>
  `3 nights in Lisbon; rounds served by ${route.map((name) => legs[name].label).join(', ')}`;

describe('one runtime serves all three rounds', () => {
  test.each(['bun', 'deno', 'workerd', 'node'] as const)('%s', async (name) => {
    const route: Name[] = [name, name, name];
    expect(await planTrip(route)).toBe(served(route));
  });
});

describe('each round on another runtime: state sealed on one opens on the next', () => {
  test.each([
    [['bun', 'deno', 'node']],
    [['deno', 'workerd', 'bun']],
    [['workerd', 'node', 'deno']],
    [['node', 'bun', 'workerd']],
  ] as [Name[]][])('%j', async (route) => {
    expect(await planTrip(route)).toBe(served(route));
  });
});

test('a state sealed under another key ring is refused on every runtime', async () => {
  const stranger = createTripPlanner([generateKey()], 'stranger');
  const request = (body: unknown) =>
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'plan_trip',
      },
      body: JSON.stringify(body),
    });
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'test', version: '0' },
  };
  const asked = (await (
    await stranger.fetch(
      request({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { _meta: meta, name: 'plan_trip', arguments: {} },
      }),
    )
  ).json()) as { result: { requestState: string } };
  for (const name of ['bun', 'deno', 'workerd', 'node'] as const) {
    const response = await legs[name].fetch(
      request({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          _meta: meta,
          name: 'plan_trip',
          arguments: {},
          inputResponses: { destination: { action: 'accept', content: { destination: 'Rome' } } },
          requestState: asked.result.requestState,
        },
      }),
    );
    expect(response.status, name).toBe(200);
    expect(await response.json(), name).toMatchObject({
      error: { code: -32602, message: 'Invalid or expired requestState' },
    });
  }
});
