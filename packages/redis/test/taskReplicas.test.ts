import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';

import { startRedis, type RedisProcess } from './helpers/redisServer.ts';

const binary = inject('redisServer');
const MAIN = fileURLToPath(new URL('./helpers/taskReplicaMain.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Three replicas of one server, each its own process on 127.0.0.1 with its own Redis
 * connections, one real Redis for their tasks (`createRedisTaskStore`). The test is the load
 * balancer: it sends each request to the next replica in turn, so a task started on one is
 * polled and answered on the others. A replica killed mid-task leaves its task `failed` with the
 * reason, seen from the survivors.
 */
/** What these tests read of a task method's result (absent members are absent on the wire). */
interface WireTask {
  [key: string]: unknown;
  resultType: string;
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  inputRequests: Record<string, { method: string; params: { message: string } }>;
  result: { content: { type: string; text: string }[] };
  error: { code: number; message: string; data?: unknown };
  capabilities: { extensions?: unknown };
}

describe.skipIf(binary === null)('tasks shared by three replicas through Redis', () => {
  let redis: RedisProcess;
  const replicas: { name: string; url: string; process: ChildProcess }[] = [];

  async function startReplica(name: string): Promise<void> {
    const child = spawn(
      process.execPath,
      ['--conditions=@parley/source', '--import', 'tsx', MAIN],
      {
        cwd: ROOT,
        env: { ...process.env, REDIS_PORT: String(redis.port), REPLICA: name },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const lines = createInterface({ input: child.stdout! });
    const url = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`replica ${name} exited (${code})`)));
      lines.once('line', resolve);
    });
    replicas.push({ name, url, process: child });
  }

  beforeAll(async () => {
    redis = await startRedis(binary!);
    await Promise.all(['A', 'B', 'C'].map(startReplica));
  }, 60_000);

  afterAll(async () => {
    for (const replica of replicas) replica.process.kill('SIGKILL');
    await redis?.dispose();
  });

  let nextId = 1;
  let turn = 0;
  const served: string[] = [];

  /** One 2026-07-28 request to `replica` (by default the next one in turn). */
  async function send(
    method: string,
    params: Record<string, unknown>,
    replica = replicas.filter((r) => r.process.exitCode === null && !r.process.killed)[
      turn++ % replicas.filter((r) => r.process.exitCode === null && !r.process.killed).length
    ]!,
  ): Promise<WireTask> {
    served.push(replica.name);
    const name = method === 'tools/call' ? params.name : params.taskId;
    const response = await fetch(replica.url, {
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
              extensions: { 'io.modelcontextprotocol/tasks': {} },
            },
            'io.modelcontextprotocol/clientInfo': { name: 'round-robin', version: '0' },
          },
        },
      }),
    });
    const body = (await response.json()) as { result?: WireTask; error?: unknown };
    if (body.result === undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result;
  }

  /** Poll `tasks/get` round-robin until the task is `status` (or gives up after 10 s). */
  async function until(taskId: string, status: string): Promise<WireTask> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const task = await send('tasks/get', { taskId });
      if (task.status === status) return task;
      if (Date.now() > deadline) throw new Error(`task ${taskId} is ${task.status}, not ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('a task started on one replica is polled and answered on the others, and completes', async () => {
    served.length = 0;
    const created = await send('tools/call', { name: 'deploy', arguments: {} });
    expect(created.resultType).toBe('task');
    const taskId = created.taskId as string;

    const first = await until(taskId, 'input_required');
    const [approveKey] = Object.keys(first.inputRequests);
    await send('tasks/update', {
      taskId,
      inputResponses: { [approveKey!]: { action: 'accept', content: { approve: true } } },
    });
    let second = await until(taskId, 'input_required');
    while (second.inputRequests[approveKey!] !== undefined)
      second = await until(taskId, 'input_required');
    const [regionKey] = Object.keys(second.inputRequests);
    await send('tasks/update', {
      taskId,
      inputResponses: { [regionKey!]: { action: 'accept', content: { region: 'eu-west' } } },
    });
    const done = await until(taskId, 'completed');
    expect(done.result.content[0]!.text).toMatch(/^Deployed to eu-west \(ran on [ABC]\)$/);
    // Every replica took part: the load was spread, the task was one.
    expect(new Set(served)).toEqual(new Set(['A', 'B', 'C']));
    for (const replica of replicas) {
      const seen = await send('tasks/get', { taskId }, replica);
      expect(seen.status).toBe('completed');
    }
  }, 30_000);

  test('a replica killed mid-task: the survivors report the task failed, with the reason', async () => {
    const owner = replicas[1]!;
    const created = await send('tools/call', { name: 'rollout', arguments: {} }, owner);
    const taskId = created.taskId as string;
    // The owner is at work once its progress shows, seen from another replica.
    let working = await send('tasks/get', { taskId }, replicas[0]);
    for (let i = 0; i < 100 && working.statusMessage === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      working = await send('tasks/get', { taskId }, replicas[0]);
    }
    expect(working.status).toBe('working');
    expect(working.statusMessage).toBe(`Rolling out on ${owner.name} (10%)`);

    owner.process.kill('SIGKILL');
    const killedAt = Date.now();
    await new Promise((resolve) => owner.process.once('exit', resolve));
    const failed = await until(taskId, 'failed');
    expect(failed.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(
        new RegExp(
          `^The server process running this task \\(${owner.name}\\) stopped before it finished`,
        ),
      ),
      data: { reason: 'task_owner_lost', owner: owner.name },
    });
    console.log(
      `[task replicas] killed B; the task failed after ${Date.now() - killedAt} ms: ${failed.error.message}`,
    );
    expect(failed).not.toHaveProperty('result');
    const again = await send('tasks/get', { taskId }, replicas[2]);
    expect(again.status).toBe('failed');
  }, 30_000);
});
