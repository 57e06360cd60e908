import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as z from 'zod';

import { Client, TaskCancelledError, type TaskSnapshot } from '@parley/client';
import { ParleyServer, elicitRequest, type RunningServer } from '@parley/server';

import { createReportingServer } from '../../../apps/reporting/src/reportingServer.ts';

/**
 * The Parley client against the Parley server, over real HTTP on 127.0.0.1, in both eras: a
 * tool that runs as a task and asks twice is called with `callTool` as if it were synchronous;
 * the client answers each question with its usual handler (through `tasks/update` on
 * 2026-07-28, on the `tasks/result` stream on 2025-11-25), and a handle lets the caller watch
 * the task and cancel it.
 */

const approve = elicitRequest(
  'Deploy to production?',
  z.object({ approve: z.boolean().meta({ title: 'Approve' }) }),
);
const region = elicitRequest(
  'Which region?',
  z.object({ region: z.enum(['eu-west', 'us-east']).meta({ title: 'Region' }) }),
);

const ANSWERS: Record<string, unknown> = {
  'Deploy to production?': { approve: true },
  'Which region?': { region: 'us-east' },
};

let running: RunningServer;
const cancelled: unknown[] = [];

beforeAll(async () => {
  const server = new ParleyServer({ name: 'deployer', onWarning: () => {}, onError: () => {} });
  server.tool('deploy', { task: { support: 'optional', pollIntervalMs: 20 } }, async (_a, ctx) => {
    const go = await ctx.ask('approve', approve);
    if (go.action !== 'accept' || !go.data.approve) return 'Not deployed';
    const where = await ctx.ask('region', region);
    return where.action === 'accept' ? `Deployed to ${where.data.region}` : 'Not deployed';
  });
  server.tool('wait', { task: { support: 'required', pollIntervalMs: 20 } }, async (_a, ctx) => {
    try {
      await ctx.ask('never', approve);
      return 'answered';
    } catch (error) {
      cancelled.push(error);
      throw error;
    }
  });
  running = await server.run({ transport: 'http', port: 0 });
});

afterAll(async () => {
  await running?.close();
});

describe.each(['modern', 'handshake'] as const)('the Parley client, %s era', (mode) => {
  test('callTool on a task that asks twice returns the final result, each question answered once', async () => {
    const asked: string[] = [];
    const statuses: TaskSnapshot['status'][] = [];
    const client = new Client(running.url!, {
      mode,
      elicitationHandler: (message, responseType) => {
        asked.push(message);
        return responseType(ANSWERS[message] as never);
      },
    });
    await client.connect();
    try {
      let era: string | undefined;
      const result = await client.callTool(
        'deploy',
        {},
        {
          onTask: (task) => {
            era = task.era;
            statuses.push(task.current.status);
            task.onChange((snapshot) => statuses.push(snapshot.status));
          },
        },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'Deployed to us-east' }]);
      expect(asked).toEqual(['Deploy to production?', 'Which region?']);
      expect(era).toBe(mode);
      expect(statuses.at(-1)).toBe('completed');
      if (mode === 'modern') expect(statuses).toContain('input_required');
    } finally {
      await client.close();
    }
  });

  test('cancel while the task waits for an answer: the call ends with TaskCancelledError, and so does the ask', async () => {
    const before = cancelled.length;
    const client = new Client(running.url!, {
      mode,
      // Never answers: the person walked away.
      elicitationHandler: () => new Promise(() => {}),
    });
    await client.connect();
    try {
      const call = client.callTool(
        'wait',
        {},
        {
          onTask: (task) => {
            const stop = task.onChange((snapshot) => {
              if (snapshot.status === 'input_required' || mode === 'handshake') {
                stop();
                void task.cancel();
              }
            });
          },
        },
      );
      await expect(call).rejects.toBeInstanceOf(TaskCancelledError);
      for (let i = 0; i < 50 && cancelled.length === before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(cancelled.length).toBe(before + 1);
    } finally {
      await client.close();
    }
  });
});

describe('2026-07-28: the client listens for its task instead of polling', () => {
  test('a task that suggests polling once a minute still ends in the time it takes: notifications/tasks bring each change', async () => {
    const server = new ParleyServer({ name: 'slow-poll', onWarning: () => {}, onError: () => {} });
    server.tool(
      'deploy',
      { task: { support: 'required', pollIntervalMs: 60_000 } },
      async (_a, ctx) => {
        const go = await ctx.ask('approve', approve);
        await ctx.reportProgress(1, 2, 'Deploying');
        await new Promise((resolve) => setTimeout(resolve, 50));
        return go.action === 'accept' && go.data.approve ? 'Deployed' : 'Not deployed';
      },
    );
    const app = await server.run({ transport: 'http', port: 0 });
    const methods: string[] = [];
    const client = new Client(app.url!, {
      mode: 'modern',
      fetch: (input, init) => {
        const method = new Headers(init?.headers).get('mcp-method');
        if (method !== null) methods.push(method);
        return fetch(input, init);
      },
      elicitationHandler: (_message, responseType) => responseType({ approve: true } as never),
    });
    try {
      await client.connect();
      const statuses: string[] = [];
      const started = Date.now();
      const result = await client.callTool(
        'deploy',
        {},
        {
          onTask: (task) => {
            statuses.push(task.current.status);
            task.onChange((snapshot) =>
              statuses.push(
                `${snapshot.status}${snapshot.statusMessage === 'Deploying (50%)' ? ' (50%)' : ''}`,
              ),
            );
          },
        },
      );
      const took = Date.now() - started;
      expect(result.content).toEqual([{ type: 'text', text: 'Deployed' }]);
      // A poll waits a minute: only the stream can have told the client this fast.
      expect(took).toBeLessThan(10_000);
      expect(methods.filter((method) => method === 'subscriptions/listen')).toHaveLength(1);
      expect(methods.filter((method) => method === 'tasks/get')).toEqual([]);
      expect(methods.filter((method) => method === 'tasks/update')).toHaveLength(1);
      expect(statuses).toContain('input_required');
      expect(statuses).toContain('working (50%)');
      expect(statuses.at(-1)).toBe('completed');
      console.log(
        `[tasks listen] pollIntervalMs 60 000, ended in ${took} ms; requests: ${methods.join(', ')}; statuses: ${statuses.join(' → ')}`,
      );
    } finally {
      await client.close();
      await app.close();
    }
  });
});

describe('the reporting app’s annual_report', () => {
  test.each(['modern', 'handshake'] as const)(
    '%s: runs as a task, shows its progress while it works, asks mid-way, and returns the report',
    async (mode) => {
      const app = await createReportingServer({ log: () => {} }).run({
        transport: 'http',
        port: 0,
      });
      const client = new Client(app.url!, {
        mode,
        elicitationHandler: (message, responseType) =>
          responseType(
            (message === 'Which currency for the annual report?' ? 'USD' : false) as never,
          ),
      });
      try {
        await client.connect();
        const seen: TaskSnapshot[] = [];
        const result = await client.callTool(
          'annual_report',
          {},
          {
            onTask: (task) => {
              seen.push(task.current);
              task.onChange((snapshot) => seen.push(snapshot));
            },
          },
        );
        expect(result.content).toEqual([
          { type: 'text', text: expect.stringMatching(/^Annual report 2026: \d+k USD$/) },
        ]);
        expect(seen.length).toBeGreaterThan(0);
        expect(seen.at(-1)?.status).toBe('completed');
        if (mode === 'modern') {
          expect(seen.some((s) => /^Compiling Q\d/.test(s.statusMessage ?? ''))).toBe(true);
          expect(seen.map((s) => s.status)).toContain('input_required');
        }
      } finally {
        await client.close();
        await app.close();
      }
    },
  );
});
