import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tasks-extension server written by hand on `node:http` (127.0.0.1), speaking the 2026-07-28
 * wire with no SDK and no Parley server in between, so the client is tested against the spec's
 * shapes: `server/discover` advertising the extension, `tools/call` answered with a flat
 * `CreateTaskResult` (after an MRTR round for one tool), `tasks/get` with the `DetailedTask`
 * of each status, `tasks/update` and `tasks/cancel` acknowledged empty.
 *
 * Each tool runs a script: a list of steps, each either questions (the task waits in
 * `input_required` until every key is answered, partial updates allowed) or a final result
 * or error. Between steps the task shows `working` for one poll.
 */

type Json = Record<string, unknown>;

export type Step =
  | { ask: Record<string, Json> }
  | { result: (answers: Record<string, Json>) => Json }
  | { error: { code: number; message: string } }
  | { hang: true };

interface RawTask {
  taskId: string;
  tool: string;
  steps: Step[];
  step: number;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  /** Keys still unanswered in the current step. */
  pending: Record<string, Json>;
  answers: Record<string, Json>;
  result?: Json;
  error?: Json;
  /** Polls left showing `working` before the next step starts. */
  workingPolls: number;
  createdAt: string;
}

/** One request the server received. */
export interface Received {
  method: string;
  params: Json;
  headers: IncomingMessage['headers'];
  /** ms since the server started (for the spacing of polls). */
  at: number;
}

export interface RawTaskServer {
  url: string;
  received: Received[];
  tasks: Map<string, RawTask>;
  close(): Promise<void>;
}

export interface RawTaskServerOptions {
  /** Scripts by tool name. */
  tools: Record<string, Step[]>;
  pollIntervalMs?: number;
  /** Tools that first ask `user_name` over MRTR, then create the task. */
  mrtrFirst?: string[];
  /** Tools whose first step runs as the task is created (a task that ended at once). */
  immediate?: string[];
}

const TASKS = 'io.modelcontextprotocol/tasks';

function declares(params: Json): boolean {
  const meta = params._meta as Json | undefined;
  const capabilities = meta?.['io.modelcontextprotocol/clientCapabilities'] as Json | undefined;
  const extensions = capabilities?.extensions as Json | undefined;
  return extensions !== undefined && TASKS in extensions;
}

export async function startRawTaskServer(options: RawTaskServerOptions): Promise<RawTaskServer> {
  const pollIntervalMs = options.pollIntervalMs ?? 30;
  const received: Received[] = [];
  const tasks = new Map<string, RawTask>();
  const started = Date.now();
  let next = 0;

  const taskShape = (task: RawTask): Json => ({
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: new Date().toISOString(),
    ttlMs: 3_600_000,
    pollIntervalMs,
  });

  /** Run steps until the task waits (questions, hang) or ends. */
  const advance = (task: RawTask): void => {
    const step = task.steps[task.step];
    if (step === undefined) return;
    if ('ask' in step) {
      task.status = 'input_required';
      task.pending = { ...step.ask };
    } else if ('result' in step) {
      task.status = 'completed';
      task.result = step.result(task.answers);
    } else if ('error' in step) {
      task.status = 'failed';
      task.error = step.error;
      task.statusMessage = step.error.message;
    } else {
      task.status = 'working';
      task.statusMessage = 'Still going';
    }
  };

  const create = (tool: string, answers: Record<string, Json> = {}): RawTask => {
    next += 1;
    const task: RawTask = {
      taskId: `task-${next}-${Math.random().toString(36).slice(2)}`,
      tool,
      steps: options.tools[tool] ?? [],
      step: 0,
      status: 'working',
      statusMessage: 'Started',
      pending: {},
      answers,
      workingPolls: 1,
      createdAt: new Date().toISOString(),
    };
    tasks.set(task.taskId, task);
    if (options.immediate?.includes(tool)) {
      delete task.statusMessage;
      advance(task);
    }
    return task;
  };

  const detailed = (task: RawTask): Json => {
    if (task.status === 'working' && task.workingPolls > 0) {
      task.workingPolls -= 1;
    } else if (
      task.status === 'working' &&
      task.workingPolls === 0 &&
      task.step < task.steps.length
    ) {
      delete task.statusMessage;
      advance(task);
    }
    const base = taskShape(task);
    if (task.status === 'input_required') return { ...base, inputRequests: task.pending };
    if (task.status === 'completed') return { ...base, result: task.result };
    if (task.status === 'failed') return { ...base, error: task.error };
    return base;
  };

  const answer = (id: unknown, result: Json): Json => ({
    jsonrpc: '2.0',
    id,
    result: { resultType: 'complete', ...result },
  });
  const fail = (id: unknown, code: number, message: string, data?: unknown): Json => ({
    jsonrpc: '2.0',
    id,
    error: { code, message, ...(data !== undefined ? { data } : {}) },
  });

  const handle = (message: Json, headers: IncomingMessage['headers']): [number, Json] => {
    const { id, method } = message as { id: unknown; method: string };
    const params = (message.params ?? {}) as Json;
    received.push({ method, params, headers, at: Date.now() - started });
    switch (method) {
      case 'server/discover':
        return [
          200,
          answer(id, {
            supportedVersions: ['2026-07-28'],
            capabilities: { tools: {}, extensions: { [TASKS]: {} } },
            _meta: {
              'io.modelcontextprotocol/serverInfo': { name: 'raw-tasks', version: '1.0.0' },
            },
            ttlMs: 0,
            cacheScope: 'private',
          }),
        ];
      case 'tools/list':
        return [
          200,
          answer(id, {
            tools: [...Object.keys(options.tools), 'greet'].map((name) => ({
              name,
              inputSchema: { type: 'object' },
            })),
            ttlMs: 0,
            cacheScope: 'private',
          }),
        ];
      case 'tools/call': {
        const name = params.name as string;
        if (name === 'greet')
          return [200, answer(id, { content: [{ type: 'text', text: 'Hello!' }] })];
        if (!(name in options.tools)) return [200, fail(id, -32602, `Unknown tool ${name}`)];
        if (!declares(params)) {
          return [
            400,
            fail(id, -32021, 'This tool runs only as a task', {
              requiredCapabilities: { extensions: { [TASKS]: {} } },
            }),
          ];
        }
        if (options.mrtrFirst?.includes(name)) {
          const responses = params.inputResponses as Record<string, Json> | undefined;
          if (responses?.user_name === undefined || params.requestState !== 'mrtr-1') {
            return [
              200,
              {
                jsonrpc: '2.0',
                id,
                result: {
                  resultType: 'input_required',
                  inputRequests: {
                    user_name: {
                      method: 'elicitation/create',
                      params: {
                        mode: 'form',
                        message: 'Your name?',
                        requestedSchema: {
                          type: 'object',
                          properties: { name: { type: 'string' } },
                          required: ['name'],
                        },
                      },
                    },
                  },
                  requestState: 'mrtr-1',
                },
              },
            ];
          }
          const task = create(name, { user_name: responses.user_name });
          return [200, { jsonrpc: '2.0', id, result: { resultType: 'task', ...taskShape(task) } }];
        }
        const task = create(name);
        return [200, { jsonrpc: '2.0', id, result: { resultType: 'task', ...taskShape(task) } }];
      }
      case 'tasks/get':
      case 'tasks/update':
      case 'tasks/cancel': {
        if (!declares(params)) {
          return [
            400,
            fail(id, -32021, 'Tasks need the extension', {
              requiredCapabilities: { extensions: { [TASKS]: {} } },
            }),
          ];
        }
        const task = tasks.get(params.taskId as string);
        if (task === undefined)
          return [200, fail(id, -32602, 'Failed to retrieve task: Task not found')];
        if (method === 'tasks/get') return [200, answer(id, detailed(task))];
        if (method === 'tasks/cancel') {
          if (!['completed', 'failed', 'cancelled'].includes(task.status)) {
            task.status = 'cancelled';
            task.statusMessage = 'Cancelled by request';
            task.pending = {};
          }
          return [200, answer(id, {})];
        }
        const responses = (params.inputResponses ?? {}) as Record<string, Json>;
        for (const [key, value] of Object.entries(responses)) {
          if (!(key in task.pending)) continue;
          delete task.pending[key];
          task.answers[key] = value;
        }
        if (task.status === 'input_required' && Object.keys(task.pending).length === 0) {
          task.step += 1;
          task.status = 'working';
          task.statusMessage = 'Working on it';
          task.workingPolls = 1;
        }
        return [200, answer(id, {})];
      }
      default:
        return [404, fail(id, -32601, 'Method not found')];
    }
  };

  const server: Server = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const message = JSON.parse(body) as Json;
      if (!('id' in message)) {
        response.writeHead(202).end();
        return;
      }
      const [status, reply] = handle(message, request.headers);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    received,
    tasks,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
