import {
  TaskCancelledError,
  UnsupportedCapabilityError,
  type InputRequests,
  type InputResponses,
} from '@parley/core';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { elicitRequest, rootsRequest, sampleRequest } from '../../src/ask/builders.ts';
import { TaskEngine } from '../../src/tasks/taskEngine.ts';
import type { TaskIO } from '../../src/tasks/taskEngineTypes.ts';
import type { TaskRecord, TaskScope } from '../../src/tasks/taskRecord.ts';
import { createMemoryTaskStore, type TaskStore } from '../../src/tasks/taskStore.ts';
import type { TaskOutcome } from '../../src/tasks/taskTransitions.ts';
import { ManualClock } from '../helpers/manualClock.ts';

/**
 * The task engine on its own: a handler detached from its request, awaiting questions that
 * the test answers as a client would (`get`, `update`, `cancel` on the engine), with a clock
 * the test moves, so hours pass in milliseconds.
 */

const MINUTE = 60_000;

const scope: TaskScope = {
  tool: 'deploy',
  era: 'modern',
  protocolVersion: '2026-07-28',
  clientCapabilities: {
    elicitation: { form: {} },
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

const accept = (content: Record<string, unknown>) => ({ action: 'accept' as const, content });

const approval = elicitRequest('Deploy to production?', z.object({ approve: z.boolean() }));
const region = elicitRequest('Which region?', z.object({ region: z.enum(['eu', 'us']) }));

function text(result: string): TaskOutcome {
  return { kind: 'result', result: { content: [{ type: 'text', text: result }] } };
}

interface Setup {
  clock: ManualClock;
  store: TaskStore;
  engine: TaskEngine;
}

function setup(options: { leaseMs?: number; maxReasks?: number } = {}): Setup {
  const clock = new ManualClock();
  const store = createMemoryTaskStore({ now: () => clock.now() });
  const reports: unknown[] = [];
  const engine = new TaskEngine({
    store,
    clock,
    replicaId: 'replica-a',
    ...options,
    report: (error) => reports.push(error),
  });
  return { clock, store, engine };
}

async function start(
  engine: TaskEngine,
  run: (io: TaskIO) => Promise<TaskOutcome>,
  more: Partial<TaskScope> = {},
  ttlMs: number | null = 24 * 60 * MINUTE,
): Promise<TaskRecord> {
  return engine.start({ scope: { ...scope, ...more }, ttlMs, pollIntervalMs: 500, run });
}

/** Poll like a client until the task is in `status` (the clock does not move). */
async function until(
  { engine, clock }: Setup,
  taskId: string,
  status: TaskRecord['status'],
  access: { principal?: string } = {},
): Promise<TaskRecord> {
  for (let i = 0; i < 50; i++) {
    const record = await engine.get(taskId, access);
    if (record?.status === status) return record;
    await clock.settle();
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

function asked(record: TaskRecord): InputRequests {
  return Object.fromEntries(Object.entries(record.inputRequests).map(([k, p]) => [k, p.request]));
}

describe('a task that asks', () => {
  test('asks twice, waits for each answer, and completes with what it was told', async () => {
    const s = setup();
    const seen: InputResponses[] = [];
    const task = await start(s.engine, async (io) => {
      seen.push(await io.ask({ approve: approval }));
      await io.setStatusMessage('Approved; choosing a region');
      seen.push(await io.ask({ region }));
      return text('deployed');
    });
    expect(task.status).toBe('working');
    // Durable before it was returned: any reader finds it.
    expect((await s.store.get(task.taskId))?.taskId).toBe(task.taskId);

    const first = await until(s, task.taskId, 'input_required');
    expect(Object.keys(first.inputRequests)).toEqual(['approve']);
    expect(asked(first).approve).toEqual({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Deploy to production?',
        requestedSchema: (approval.params as { requestedSchema: unknown }).requestedSchema,
      },
    });
    expect(await s.engine.update(task.taskId, {}, { approve: accept({ approve: true }) })).toEqual({
      accepted: ['approve'],
      reasked: [],
      ignored: [],
    });

    const second = await until(s, task.taskId, 'input_required');
    expect(Object.keys(second.inputRequests)).toEqual(['region']);
    expect(second.statusMessage).toBe('Approved; choosing a region');
    await s.engine.update(task.taskId, {}, { region: accept({ region: 'eu' }) });

    const done = await until(s, task.taskId, 'completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'deployed' }] });
    expect(done.inputRequests).toEqual({});
    expect(done.keysUsed).toEqual(['approve', 'region']);
    expect(seen).toEqual([
      { approve: { action: 'accept', content: { approve: true } } },
      { region: { action: 'accept', content: { region: 'eu' } } },
    ]);
    expect(s.engine.running).toBe(0);
    expect(s.clock.pending).toBe(0);
  });

  test('partial answers: the task stays input_required with only the unanswered key', async () => {
    const s = setup();
    const task = await start(s.engine, async (io) => {
      const answers = await io.ask({ approve: approval, region });
      return text(JSON.stringify(answers));
    });
    await until(s, task.taskId, 'input_required');
    const report = await s.engine.update(
      task.taskId,
      {},
      {
        region: accept({ region: 'us' }),
        never_asked: accept({ x: 1 }),
      },
    );
    expect(report).toEqual({ accepted: ['region'], reasked: [], ignored: ['never_asked'] });
    await s.clock.settle();
    const partial = await s.engine.get(task.taskId, {});
    expect(partial?.status).toBe('input_required');
    expect(Object.keys(partial!.inputRequests)).toEqual(['approve']);
    // An answer to a key already answered is ignored, not applied twice.
    expect(await s.engine.update(task.taskId, {}, { region: accept({ region: 'eu' }) })).toEqual({
      accepted: [],
      reasked: [],
      ignored: ['region'],
    });
    await s.engine.update(task.taskId, {}, { approve: accept({ approve: false }) });
    const done = await until(s, task.taskId, 'completed');
    expect(JSON.parse((done.result!.content as { text: string }[])[0]!.text)).toEqual({
      approve: { action: 'accept', content: { approve: false } },
      region: { action: 'accept', content: { region: 'us' } },
    });
  });

  test('keys are unique over the task’s life: the same question asked again gets a new key', async () => {
    const s = setup();
    const task = await start(s.engine, async (io) => {
      await io.ask({ approve: approval });
      await io.ask({ approve: approval });
      return text('twice');
    });
    await until(s, task.taskId, 'input_required');
    await s.engine.update(task.taskId, {}, { approve: accept({ approve: true }) });
    await s.clock.settle();
    const again = await until(s, task.taskId, 'input_required');
    expect(Object.keys(again.inputRequests)).toEqual(['approve-2']);
    // The old key is spent: an answer to it is ignored and the task still waits.
    expect(
      (await s.engine.update(task.taskId, {}, { approve: accept({ approve: true }) }))?.ignored,
    ).toEqual(['approve']);
    await s.engine.update(task.taskId, {}, { 'approve-2': accept({ approve: true }) });
    expect((await until(s, task.taskId, 'completed')).keysUsed).toEqual(['approve', 'approve-2']);
  });

  test('a bad answer is asked again under a new key, saying what was wrong, within the budget', async () => {
    const s = setup({ maxReasks: 1 });
    let got: InputResponses | undefined;
    const task = await start(s.engine, async (io) => {
      got = await io.ask({ region });
      return text('ok');
    });
    await until(s, task.taskId, 'input_required');
    const report = await s.engine.update(task.taskId, {}, { region: accept({ region: 'mars' }) });
    expect(report?.reasked).toEqual([
      { key: 'region', newKey: 'region-2', reason: expect.any(String) },
    ]);
    const again = await s.engine.get(task.taskId, {});
    const reask = asked(again!)['region-2'] as { params: { message: string } };
    expect(reask.params.message).toMatch(
      /^Which region\?\n\nYour last answer could not be used\. /,
    );
    expect(reask.params.message).toContain('mars');
    // Out of budget: the next bad answer reaches the handler as it is (its reader raises).
    expect(
      (await s.engine.update(task.taskId, {}, { 'region-2': accept({ region: 'moon' }) }))
        ?.accepted,
    ).toEqual(['region-2']);
    await until(s, task.taskId, 'completed');
    expect(got).toEqual({ region: { action: 'accept', content: { region: 'moon' } } });
  });

  test('decline and cancel are answers like any other', async () => {
    const s = setup();
    let got: InputResponses | undefined;
    const task = await start(s.engine, async (io) => {
      got = await io.ask({ approve: approval, region });
      return text('ok');
    });
    await until(s, task.taskId, 'input_required');
    await s.engine.update(
      task.taskId,
      {},
      { approve: { action: 'decline' }, region: { action: 'cancel' } },
    );
    await until(s, task.taskId, 'completed');
    expect(got).toEqual({ approve: { action: 'decline' }, region: { action: 'cancel' } });
  });

  test('answers that are not answers are refused, and nothing of the update applies', async () => {
    const s = setup();
    const task = await start(s.engine, async (io) => {
      await io.ask({ approve: approval, region });
      return text('ok');
    });
    await until(s, task.taskId, 'input_required');
    await expect(s.engine.update(task.taskId, {}, 'yes')).rejects.toMatchObject({
      code: 'invalid_input_responses',
    });
    await expect(
      s.engine.update(task.taskId, {}, { approve: accept({ approve: true }), region: 7 }),
    ).rejects.toMatchObject({ code: 'invalid_input_responses', data: { key: 'region' } });
    await expect(
      s.engine.update(task.taskId, {}, { approve: { roots: [] } }),
    ).rejects.toMatchObject({ code: 'invalid_input_responses', data: { key: 'approve' } });
    const still = await s.engine.get(task.taskId, {});
    expect(Object.keys(still!.inputRequests).sort()).toEqual(['approve', 'region']);
  });

  test('an answer that comes after 10 minutes (simulated) resumes the handler', async () => {
    const s = setup({ leaseMs: 30_000 });
    const task = await start(s.engine, async (io) => {
      const { approve } = await io.ask({ approve: approval });
      return text(`approved: ${JSON.stringify(approve)}`);
    });
    await until(s, task.taskId, 'input_required');
    const asking = (await s.engine.get(task.taskId, {}))!;
    await s.clock.advance(10 * MINUTE);
    // The owner kept its lease alive all along: still waiting, not presumed dead.
    const waited = (await s.engine.get(task.taskId, {}))!;
    expect(waited.status).toBe('input_required');
    expect(waited.lease.expiresAt).toBeGreaterThan(s.clock.now());
    expect(waited.lastUpdatedAt).toBe(asking.lastUpdatedAt);
    await s.engine.update(task.taskId, {}, { approve: accept({ approve: true }) });
    const done = await until(s, task.taskId, 'completed');
    expect(done.lastUpdatedAt).toBe(asking.createdAt + 10 * MINUTE);
    expect(done.result).toEqual({
      content: [{ type: 'text', text: 'approved: {"action":"accept","content":{"approve":true}}' }],
    });
  });

  test('progress and status messages are on the task while it works', async () => {
    const s = setup();
    let go: () => void = () => {};
    const gate = new Promise<void>((resolve) => (go = resolve));
    const task = await start(s.engine, async (io) => {
      await io.reportProgress(2, 5, 'Crunching numbers');
      await gate;
      return text('done');
    });
    await s.clock.settle();
    const working = (await s.engine.get(task.taskId, {}))!;
    expect(working.progress).toEqual({ progress: 2, total: 5, message: 'Crunching numbers' });
    go();
    expect((await until(s, task.taskId, 'completed')).progress).toBeUndefined();
  });
});

describe('cancel, expiry, and ends', () => {
  test('cancel while waiting: cancelled at once, the wait rejects, the handler’s end is ignored', async () => {
    const s = setup();
    let failure: unknown;
    let aborted = false;
    const task = await start(s.engine, async (io) => {
      io.signal.addEventListener('abort', () => (aborted = true));
      try {
        await io.ask({ approve: approval });
      } catch (error) {
        failure = error;
      }
      return text('finished anyway');
    });
    await until(s, task.taskId, 'input_required');
    expect(await s.engine.cancel(task.taskId, {})).toBe('cancelled');
    const cancelled = (await s.engine.get(task.taskId, {}))!;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.statusMessage).toBe('Cancelled at the client’s request.');
    expect(cancelled.inputRequests).toEqual({});
    await s.clock.settle();
    expect(aborted).toBe(true);
    expect(failure).toBeInstanceOf(TaskCancelledError);
    expect((await s.engine.get(task.taskId, {}))?.status).toBe('cancelled');
    expect(await s.engine.cancel(task.taskId, {})).toBe('already-ended');
    expect(s.engine.running).toBe(0);
  });

  test('a task kept for its ttl, then gone; a handler still running is stopped', async () => {
    const s = setup();
    const task = await start(
      s.engine,
      async (io) => {
        await new Promise((_, reject) =>
          io.signal.addEventListener('abort', () => reject(io.signal.reason)),
        );
        return text('never');
      },
      {},
      60 * MINUTE,
    );
    await s.clock.advance(59 * MINUTE);
    expect((await s.engine.get(task.taskId, {}))?.status).toBe('working');
    await s.clock.advance(MINUTE);
    expect(await s.engine.get(task.taskId, {})).toBeUndefined();
    expect(await s.engine.cancel(task.taskId, {})).toBe('unknown');
    expect(await s.engine.update(task.taskId, {}, {})).toBeUndefined();
    expect(s.engine.running).toBe(0);
  });

  test('a tool error completes the task; a protocol error fails it with the error inlined', async () => {
    const s = setup();
    const toolError = await start(s.engine, async () => ({
      kind: 'result',
      result: { content: [{ type: 'text', text: 'no such file' }], isError: true },
    }));
    const protocolError = await start(s.engine, async () => ({
      kind: 'error',
      error: { code: -32602, message: 'Unknown job' },
    }));
    const crash = await start(s.engine, async () => {
      throw new Error('segfault in the render farm');
    });
    expect((await until(s, toolError.taskId, 'completed')).result?.isError).toBe(true);
    const failed = await until(s, protocolError.taskId, 'failed');
    expect(failed.error).toEqual({ code: -32602, message: 'Unknown job' });
    expect(failed.statusMessage).toBe('Unknown job');
    expect(failed.result).toBeUndefined();
    // The crash's details stay on the server.
    expect((await until(s, crash.taskId, 'failed')).error).toEqual({
      code: -32603,
      message: 'Internal error',
    });
  });

  test('close: the replica’s running tasks end failed, saying the server stopped', async () => {
    const s = setup();
    const task = await start(s.engine, async (io) => {
      await io.ask({ approve: approval });
      return text('never');
    });
    await until(s, task.taskId, 'input_required');
    await s.engine.close();
    const failed = (await s.engine.get(task.taskId, {}))!;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: -32603, data: { reason: 'server_stopped' } });
    await expect(start(s.engine, async () => text('x'))).rejects.toThrow(/shutting down/);
  });

  test('a principal’s task is invisible to anyone else', async () => {
    const s = setup();
    const task = await start(
      s.engine,
      async (io) => {
        await io.ask({ approve: approval });
        return text('ok');
      },
      { principal: 'alice' },
    );
    await until(s, task.taskId, 'input_required', { principal: 'alice' });
    expect(await s.engine.get(task.taskId, { principal: 'mallory' })).toBeUndefined();
    expect(await s.engine.get(task.taskId, {})).toBeUndefined();
    expect(
      await s.engine.update(
        task.taskId,
        { principal: 'mallory' },
        { approve: accept({ approve: true }) },
      ),
    ).toBeUndefined();
    expect(await s.engine.cancel(task.taskId, { principal: 'mallory' })).toBe('unknown');
    expect((await s.engine.get(task.taskId, { principal: 'alice' }))?.status).toBe(
      'input_required',
    );
    await s.engine.cancel(task.taskId, { principal: 'alice' });
  });
});

describe('what the client can answer', () => {
  test('a question of a kind the client did not declare fails the ask; an optional one is left out', async () => {
    const s = setup();
    let failure: unknown;
    let optional: InputResponses | undefined;
    const task = await start(s.engine, async (io) => {
      optional = await io.ask({ model: sampleRequest('Summarise', { optional: true }) });
      try {
        await io.ask({ roots: rootsRequest() });
      } catch (error) {
        failure = error;
      }
      return text('ok');
    });
    await until(s, task.taskId, 'completed');
    expect(optional).toEqual({});
    expect(failure).toBeInstanceOf(UnsupportedCapabilityError);
    expect((failure as UnsupportedCapabilityError).data?.requiredCapabilities).toEqual({
      roots: {},
    });
  });

  test('a question with its own timeout gives up when the clock says so, and leaves the task', async () => {
    const s = setup();
    let failure: unknown;
    const task = await start(s.engine, async (io) => {
      try {
        await io.ask({ approve: approval }, { timeoutMs: 5 * MINUTE });
      } catch (error) {
        failure = error;
      }
      return text('gave up');
    });
    await until(s, task.taskId, 'input_required');
    await s.clock.advance(5 * MINUTE);
    expect(String(failure)).toMatch(/No answer to 'approve' within 300000 ms/);
    const done = await until(s, task.taskId, 'completed');
    expect(done.inputRequests).toEqual({});
  });
});

describe('replicas sharing a store', () => {
  /** A store as one replica reaches it; `cut()` makes every call fail, as a dead replica's would. */
  function reachable(store: TaskStore): { store: TaskStore; cut(): void } {
    let cut = false;
    const guard = <T>(call: () => T): T => {
      if (cut) throw new Error('this replica is gone');
      return call();
    };
    return {
      cut: () => (cut = true),
      store: {
        create: (record) => guard(() => store.create(record)),
        get: (id) => guard(() => store.get(id)),
        update: (id, change) => guard(() => store.update(id, change)),
        delete: (id) => guard(() => store.delete(id)),
        list: (owner, page) => guard(() => store.list(owner, page)),
        watch: (id, listener) => store.watch(id, (record) => (cut ? undefined : listener(record))),
      },
    };
  }

  test('any replica serves get, update and cancel; the answer reaches the replica that awaits it', async () => {
    const clock = new ManualClock();
    const shared = createMemoryTaskStore({ now: () => clock.now() });
    const a = new TaskEngine({ store: shared, clock, replicaId: 'a' });
    const b = new TaskEngine({ store: shared, clock, replicaId: 'b' });
    const task = await a.start({
      scope,
      ttlMs: null,
      pollIntervalMs: 500,
      run: async (io) => text(JSON.stringify(await io.ask({ approve: approval }))),
    });
    await clock.settle();
    expect((await b.get(task.taskId, {}))?.status).toBe('input_required');
    await b.update(task.taskId, {}, { approve: accept({ approve: true }) });
    await clock.settle();
    const done = (await b.get(task.taskId, {}))!;
    expect(done.status).toBe('completed');
    expect(done.lease.owner).toBe('a');
  });

  test('a replica that dies mid-task: the next reader marks the task failed, with the reason', async () => {
    const clock = new ManualClock();
    const shared = createMemoryTaskStore({ now: () => clock.now() });
    const link = reachable(shared);
    const a = new TaskEngine({
      store: link.store,
      clock,
      replicaId: 'replica-a',
      leaseMs: 30_000,
      report: () => {},
    });
    const b = new TaskEngine({ store: shared, clock, replicaId: 'replica-b', leaseMs: 30_000 });
    const task = await a.start({
      scope,
      ttlMs: null,
      pollIntervalMs: 500,
      run: async (io) => text(JSON.stringify(await io.ask({ approve: approval }))),
    });
    await clock.settle();
    link.cut();
    await clock.advance(29_000);
    expect((await b.get(task.taskId, {}))?.status).toBe('input_required');
    await clock.advance(2_000);
    const failed = (await b.get(task.taskId, {}))!;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({
      code: -32603,
      data: { reason: 'task_owner_lost', owner: 'replica-a' },
    });
    expect(failed.error?.message).toMatch(
      /^The server process running this task \(replica-a\) stopped before it finished/,
    );
    expect(failed.inputRequests).toEqual({});
    // An answer that comes late changes nothing.
    expect(
      (await b.update(task.taskId, {}, { approve: accept({ approve: true }) }))?.ignored,
    ).toEqual(['approve']);
  });
});

describe('the memory store', () => {
  test('lists a caller’s tasks newest first, a page at a time, with an opaque cursor', async () => {
    const s = setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (
          await start(s.engine, async (io) => (await io.ask({ approve: approval }), text('x')), {
            sessionId: 's1',
          })
        ).taskId,
      );
      await s.clock.advance(1000);
    }
    await start(s.engine, async () => text('other'), { sessionId: 's2' });
    const first = await s.engine.list({ sessionId: 's1' }, { limit: 2 });
    expect(first.tasks.map((t) => t.taskId)).toEqual([ids[4], ids[3]]);
    const second = await s.engine.list(
      { sessionId: 's1' },
      { limit: 2, cursor: first.nextCursor! },
    );
    expect(second.tasks.map((t) => t.taskId)).toEqual([ids[2], ids[1]]);
    const last = await s.engine.list({ sessionId: 's1' }, { limit: 2, cursor: second.nextCursor! });
    expect(last.tasks.map((t) => t.taskId)).toEqual([ids[0]]);
    expect(last.nextCursor).toBeUndefined();
    expect((await s.engine.list({}, {})).tasks).toEqual([]);
    await expect(s.engine.list({ sessionId: 's1' }, { cursor: 'bogus' })).rejects.toThrow(
      TypeError,
    );
    for (const id of ids) await s.engine.cancel(id, {});
  });

  test('copies records in and out, and refuses more than maxTasks', async () => {
    const clock = new ManualClock();
    const store = createMemoryTaskStore({ now: () => clock.now(), maxTasks: 1 });
    const engine = new TaskEngine({ store, clock });
    const task = await engine.start({
      scope,
      ttlMs: 1000,
      pollIntervalMs: 100,
      run: async () => text('x'),
    });
    const copy = (await store.get(task.taskId))!;
    copy.status = 'failed';
    expect((await store.get(task.taskId))?.status).not.toBe('failed');
    await expect(
      engine.start({ scope, ttlMs: 1000, pollIntervalMs: 100, run: async () => text('y') }),
    ).rejects.toThrow(/holds 1 tasks already/);
    await clock.advance(1000);
    // Expired tasks make room.
    await engine.start({ scope, ttlMs: 1000, pollIntervalMs: 100, run: async () => text('z') });
    expect(() => createMemoryTaskStore({ maxTasks: 0 })).toThrow(RangeError);
  });
});
