import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client } from '@parley/client';

import { startRedisServer, type RedisServer } from '../../../scripts/redisServer.ts';
import {
  bundleApp,
  freePort,
  haproxyBinary,
  haproxyVersion,
  missingBinaries,
  redisBinary,
  sleep,
  startApp,
  startHaproxy,
  type Balancer,
  stopProcess,
} from './harness.ts';

/**
 * Three replicas of apps/reporting (real processes on 127.0.0.1) behind a real HAProxy running
 * the deployment guide's configuration, their tasks in one Redis (`REDIS_URL`). The balancer
 * sends modern requests round robin, so a task started on one replica is polled, answered and
 * listened to on the others; HAProxy names the replica that answered each request (x-served-by,
 * its server names booking1..3 for replicas reporting1..3). A replica SIGKILLed mid-task leaves
 * its task `failed`, with the reason, as seen through the balancer. Leases are short
 * (TASK_LEASE_MS) so that takes a second, not 30.
 */

const missing = missingBinaries('load-balancer tasks test');

const TASKS = { 'io.modelcontextprotocol/tasks': {} };
const LEASE_MS = 600;

interface WireTask {
  [key: string]: unknown;
  resultType: string;
  taskId: string;
  status: string;
  statusMessage?: string;
  inputRequests: Record<string, { method: string; params: { message: string } }>;
  result: { content: { type: string; text: string }[] };
  error: { code: number; message: string; data?: Record<string, unknown> };
}

describe.skipIf(missing.length > 0)('tasks on three reporting replicas behind HAProxy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-lb-tasks-'));
  let redis: RedisServer;
  let balancer: Balancer;
  const ports: number[] = [];
  const replicas: ChildProcess[] = [];
  /** HAProxy's server name → the replica's own name (its REPLICA_ID). */
  const replicaOf = (server: string | null) =>
    server === null ? '?' : server.replace('booking', 'reporting');

  beforeAll(async () => {
    let main: string;
    [redis, main] = await Promise.all([
      startRedisServer(redisBinary!),
      bundleApp('apps/reporting/src/main.ts', join(dir, 'reporting')),
    ]);
    for (let i = 0; i < 3; i++) ports.push(await freePort());
    replicas.push(
      ...(await Promise.all(
        ports.map((port, i) =>
          startApp(
            main,
            {
              REPORTING_PORT: String(port),
              REDIS_URL: redis.url,
              REPLICA_ID: `reporting${i + 1}`,
              TASK_LEASE_MS: String(LEASE_MS),
            },
            'reporting: serving',
            `reporting${i + 1}`,
          ),
        ),
      )),
    );
    balancer = await startHaproxy(dir, ports, { servedBy: true });
    await balancer.upInHaproxy(3);
  }, 120_000);

  afterAll(async () => {
    await stopProcess(balancer?.process);
    for (const child of replicas) child.kill('SIGKILL');
    await redis?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  let nextId = 1;
  /** Which replica served each request, in order: `method → replica`. */
  const served: { method: string; replica: string }[] = [];

  /** One 2026-07-28 request through the balancer. */
  async function send(method: string, params: Record<string, unknown>): Promise<WireTask> {
    const name = method === 'tools/call' ? params.name : params.taskId;
    const response = await fetch(balancer.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        'mcp-name': String(name),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {
              elicitation: { form: {} },
              extensions: TASKS,
            },
            'io.modelcontextprotocol/clientInfo': { name: 'through-haproxy', version: '0' },
          },
        },
      }),
    });
    served.push({ method, replica: replicaOf(response.headers.get('x-served-by')) });
    const body = (await response.json()) as { result?: WireTask; error?: unknown };
    if (body.result === undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result;
  }

  /** Poll `tasks/get` through the balancer until the task is `status` (10 s at most). */
  async function until(taskId: string, status: string): Promise<WireTask> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const task = await send('tasks/get', { taskId });
      if (task.status === status) return task;
      if (Date.now() > deadline) throw new Error(`task ${taskId} is ${task.status}, not ${status}`);
      await sleep(50);
    }
  }

  test('a task started through the balancer is polled and answered on every replica, and completes', async () => {
    served.length = 0;
    const created = await send('tools/call', { name: 'annual_report', arguments: {} });
    expect(created.resultType).toBe('task');
    const owner = served[0]!.replica;
    const taskId = created.taskId;

    // Poll through the balancer; answer each question once, as it shows (the keys a poll shows
    // again before the answer is taken are not answered twice).
    const answered = new Set<string>();
    const asked: string[] = [];
    let done: WireTask | undefined;
    for (const deadline = Date.now() + 10_000; done === undefined; await sleep(50)) {
      const task = await send('tasks/get', { taskId });
      if (task.status === 'completed') done = task;
      else if (task.status !== 'working' && task.status !== 'input_required') {
        throw new Error(`the task ended ${task.status}: ${JSON.stringify(task.error)}`);
      } else if (Date.now() > deadline) throw new Error(`task ${taskId} is still ${task.status}`);
      const fresh = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
      if (fresh.length === 0) continue;
      const inputResponses: Record<string, unknown> = {};
      for (const [key, request] of fresh) {
        answered.add(key);
        asked.push(request.params.message);
        inputResponses[key] = {
          action: 'accept',
          content:
            request.params.message === 'Which currency for the annual report?'
              ? { value: 'USD' }
              : { value: true },
        };
      }
      await send('tasks/update', { taskId, inputResponses });
    }
    expect(asked.sort()).toEqual([
      'Include the quarterly breakdown?',
      'Which currency for the annual report?',
    ]);
    expect(done.result.content[0]!.text).toMatch(
      /^Annual report 2026: \d+k USD\nQ1: \d+k USD\nQ2: \d+k USD\nQ3: \d+k USD\nQ4: \d+k USD$/,
    );

    // One task, served by the whole fleet: polls and the answer on every replica, while only
    // the owner ran the handler.
    const byReplica = new Map<string, string[]>();
    for (const { method, replica } of served) {
      byReplica.set(replica, [...(byReplica.get(replica) ?? []), method]);
    }
    expect([...byReplica.keys()].sort()).toEqual(['reporting1', 'reporting2', 'reporting3']);
    const updatedOn = served.find((entry) => entry.method === 'tasks/update')!.replica;
    const polledElsewhere = served.filter(
      (entry) => entry.method === 'tasks/get' && entry.replica !== owner,
    ).length;
    expect(polledElsewhere).toBeGreaterThan(0);
    console.log(
      [
        `[lb tasks] HAProxy ${haproxyVersion(haproxyBinary!)}, 3 reporting replicas, tasks in one Redis (lease ${LEASE_MS} ms):`,
        `  annual_report started on ${owner} (it runs the handler), answered (tasks/update) on ${updatedOn}, completed`,
        `  ${served.length} requests: ${[...byReplica].map(([replica, methods]) => `${replica} ${methods.length}`).join(', ')}; tasks/get on a replica other than the owner: ${polledElsewhere}`,
      ].join('\n'),
    );
  }, 30_000);

  test('the Parley client through the balancer: its listen stream on one replica hears the task another runs', async () => {
    const seen: { method: string; replica: string }[] = [];
    const client = new Client(balancer.url, {
      mode: 'modern',
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const method = new Headers(init?.headers).get('mcp-method');
        if (method !== null)
          seen.push({ method, replica: replicaOf(response.headers.get('x-served-by')) });
        return response;
      },
      elicitationHandler: (message, responseType) =>
        responseType(
          (message === 'Which currency for the annual report?' ? 'GBP' : false) as never,
        ),
    });
    try {
      await client.connect();
      const started = Date.now();
      const result = await client.callTool('annual_report', {});
      const took = Date.now() - started;
      expect(result.content).toEqual([
        { type: 'text', text: expect.stringMatching(/^Annual report 2026: \d+k GBP$/) },
      ]);
      const owner = seen.find((entry) => entry.method === 'tools/call')!.replica;
      const listener = seen.find((entry) => entry.method === 'subscriptions/listen')!.replica;
      // Round robin put the stream on another replica: only Redis's notices can have told it.
      expect(listener).not.toBe(owner);
      expect(seen.filter((entry) => entry.method === 'tasks/get')).toEqual([]);
      console.log(
        `[lb tasks] Parley client: task on ${owner}, listen stream on ${listener}, answered on ${seen.find((entry) => entry.method === 'tasks/update')?.replica}; ended in ${took} ms with ${seen.filter((entry) => entry.method === 'tasks/get').length} tasks/get (${seen.map((entry) => `${entry.method}@${entry.replica}`).join(', ')})`,
      );
    } finally {
      await client.close();
    }
  }, 30_000);

  test('a replica SIGKILLed mid-task: through the balancer the task ends failed, with the reason', async () => {
    served.length = 0;
    const created = await send('tools/call', { name: 'annual_report', arguments: {} });
    const owner = served[0]!.replica;
    const taskId = created.taskId;
    const working = await send('tasks/get', { taskId });
    expect(working.status).toBe('working'); // compiling the quarters

    const ownerProcess = replicas[Number(owner.replace('reporting', '')) - 1]!;
    ownerProcess.kill('SIGKILL');
    const killedAt = Date.now();
    await new Promise((resolve) => ownerProcess.once('exit', resolve));
    const failed = await until(taskId, 'failed');
    const after = Date.now() - killedAt;
    expect(failed.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(
        new RegExp(
          `^The server process running this task \\(${owner}\\) stopped before it finished`,
        ),
      ),
      data: { reason: 'task_owner_lost', owner },
    });
    expect(failed).not.toHaveProperty('result');
    const servedAfter = [...new Set(served.slice(2).map((entry) => entry.replica))];
    expect(servedAfter).not.toContain(owner);
    await balancer.upInHaproxy(2);
    console.log(
      `[lb tasks] SIGKILL ${owner} mid-task: failed after ${after} ms (lease ${LEASE_MS} ms), seen through the balancer on ${servedAfter.join(', ')}: ${failed.error.message}`,
    );
  }, 30_000);
});
