/**
 * The tasks extension's fixtures (SEP-2663), as the suite's `tasks-*` scenarios name them:
 * tools that run as tasks, ask through the task, fail either way, and one that gathers input by
 * MRTR rounds before it becomes a task. Built only on Parley's public API.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import * as z from 'zod';

import { elicitRequest, type ParleyServer } from '@parley/server';

/** Sleep `ms`, or stop as soon as `signal` aborts (a cancelled task). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

const confirmation = z.object({ confirm: z.boolean().meta({ title: 'Confirm' }) });
const namedConfirmation = z.object({
  name: z.string().meta({ title: 'Name' }),
  confirm: z.boolean().meta({ title: 'Confirm' }),
});
const askUserName = elicitRequest(
  'What is your name?',
  z.object({ name: z.string().meta({ title: 'Name' }) }),
);

export function addTaskFixtures(mcp: ParleyServer): void {
  mcp.tool(
    'greet',
    { description: 'A plain tool: greets by name', inputSchema: { name: z.string() } },
    ({ name }) => `Hello, ${name}!`,
  );
  mcp.tool(
    'slow_compute',
    {
      description: 'Runs as a task: sleeps for `seconds`, then answers',
      inputSchema: { seconds: z.number().min(0), label: z.string().optional() },
      task: { support: 'optional', pollIntervalMs: 200 },
    },
    async ({ seconds, label }, ctx) => {
      await pause(seconds * 1000, ctx.signal);
      return `Computed ${label ?? 'result'} after ${seconds}s`;
    },
  );
  mcp.tool(
    'failing_job',
    {
      description: 'Runs only as a task; always ends in a tool execution error',
      task: { support: 'required', pollIntervalMs: 200 },
    },
    async (_args, ctx) => {
      await pause(1000, ctx.signal);
      throw new Error('The job failed: the input data set is empty.');
    },
  );
  mcp.tool(
    'protocol_error_job',
    {
      description: 'Runs as a task; ends in a protocol-level error',
      task: { support: 'optional', pollIntervalMs: 200 },
    },
    () => {
      throw new ProtocolError(-32603, 'The job crashed before producing a result.');
    },
  );
  mcp.tool(
    'confirm_delete',
    {
      description: 'Runs as a task; asks for confirmation through the task before deleting',
      inputSchema: { filename: z.string() },
      task: { support: 'optional', pollIntervalMs: 200 },
    },
    async ({ filename }, ctx) => {
      const answer = await ctx.ask('confirm', elicitRequest(`Delete ${filename}?`, confirmation));
      return answer.action === 'accept' && answer.data.confirm
        ? `Deleted ${filename}`
        : `Kept ${filename}`;
    },
  );
  mcp.tool(
    'multi_input',
    {
      description: 'Runs as a task; asks two questions at once',
      task: { support: 'optional', pollIntervalMs: 200 },
    },
    async (_args, ctx) => {
      const [first, second] = await Promise.all([
        ctx.elicit('First name and confirmation', namedConfirmation),
        ctx.elicit('Second name and confirmation', namedConfirmation),
      ]);
      const names = [first, second].map((answer) =>
        answer.action === 'accept' ? answer.data.name : '(none)',
      );
      return `Got ${names.join(' and ')}`;
    },
  );
  mcp.tool(
    'test_tool_with_task',
    {
      description: 'Asks for a name by MRTR rounds, then runs as a task',
      task: { support: 'required', start: 'by-handler', pollIntervalMs: 200 },
    },
    async (_args, ctx) => {
      const name = await ctx.ask('user_name', askUserName);
      await ctx.startTask();
      await pause(200, ctx.signal);
      return `Hello, ${name.action === 'accept' ? name.data.name : 'stranger'}, from a task!`;
    },
  );
}
