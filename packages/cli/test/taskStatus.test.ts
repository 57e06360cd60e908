import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

// The client's hand-written tasks server (2026-07-28 on 127.0.0.1): the Parley server side of
// tasks is wired in its own step; until then this is the server the terminal is tested against.
import { startRawTaskServer, type RawTaskServer } from '../../client/test/helpers/rawTaskServer.ts';
import { runCli } from '../src/runCli.ts';
import { startApp, type RunningApp } from './helpers/demoApps.ts';
import { parley } from './helpers/runParley.ts';
import { scriptedPrompter } from './helpers/scriptedPrompter.ts';

/** `parley call` on a tool the server runs as a task: the terminal shows the task as it goes. */

let server: RawTaskServer | undefined;
let reporting: RunningApp;

beforeAll(async () => {
  reporting = await startApp('reporting');
}, 60_000);

afterAll(async () => {
  await reporting?.stop();
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const question = (message: string) => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message,
    requestedSchema: {
      type: 'object',
      properties: { approve: { type: 'boolean', title: 'Approve' } },
      required: ['approve'],
    },
  },
});

describe('parley call on a task', () => {
  test('announces the task, shows its status while it waits, asks its question, prints the result', async () => {
    server = await startRawTaskServer({
      tools: {
        deploy: [
          { ask: { approve: question('Deploy build 42 to production?') } },
          { result: () => ({ content: [{ type: 'text', text: 'Deployed build 42' }] }) },
        ],
      },
      pollIntervalMs: 20,
    });
    const prompter = scriptedPrompter([true]);
    let stdout = '';
    const code = await runCli(['call', server.url, 'deploy', '--mode', 'modern'], {
      stdout: (text) => void (stdout += text),
      stderr: () => {},
      prompter,
      cwd: process.cwd(),
    });
    expect(code).toBe(0);
    expect(stdout).toBe('Deployed build 42\n');
    const taskId = [...server.tasks.keys()][0]!;
    const lines = prompter.screen.filter(
      (line) => !line.startsWith('intro') && !line.startsWith('info: Connected'),
    );
    expect(lines).toEqual([
      `step: deploy runs as a task (${taskId}); Ctrl-C cancels it.\nTask working: Started`,
      'question: deploy asks (round 1)',
      "  route: elicitation (the client's own form)",
      '  Deploy build 42 to production?',
      expect.stringMatching(/^ {2}\(/),
      '? Approve',
      'info: Task working: Working on it',
      'success: Task completed',
      'outro: Result',
    ]);
  });

  // The reporting app (a real Parley server) compiles four quarters with progress, then asks
  // two questions at once: the task is back at `Compiling Q4 (75%)` after each answer.
  for (const mode of ['modern', 'handshake']) {
    test(`${mode}: each status once, in order, ending at the final state`, async () => {
      const { code, stdout, screen } = await parley(
        ['call', reporting.url, 'annual_report', '--mode', mode],
        ['USD', false],
      );
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Annual report 2026: \d+k USD\n$/);
      const statuses = screen.filter((line) => /^(info|success|warn): Task /.test(line));
      expect(statuses).toEqual([
        ...['Q1 (0%)', 'Q2 (25%)', 'Q3 (50%)', 'Q4 (75%)']
          .map((step) => `info: Task working: Compiling ${step}`)
          .filter((line) => screen.includes(line)),
        'success: Task completed',
      ]);
      expect(statuses).toContain('info: Task working: Compiling Q4 (75%)');
      expect(screen.at(-2)).toBe('success: Task completed');
    });
  }
});
