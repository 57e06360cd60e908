import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A 2025-11-25 server with core tasks, written by hand on `node:http` (127.0.0.1): a session
 * from `initialize`, a tool listed with `execution.taskSupport: "required"`, `tools/call` with
 * `params.task` answered `{ task }`, `tasks/get` and `tasks/cancel` returning the task, and
 * `tasks/result` as an SSE stream on which the server pushes its questions as real
 * `elicitation/create` requests tagged with the related-task metadata, then sends the result.
 */

type Json = Record<string, unknown>;

export type HandshakeStep = { ask: Json } | { result: (answers: Json[]) => Json } | { hang: true };

interface HandshakeTask {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  steps: HandshakeStep[];
  answers: Json[];
  createdAt: string;
}

export interface Received {
  method: string;
  params: Json;
  headers: IncomingMessage['headers'];
}

export interface RawHandshakeTaskServer {
  url: string;
  received: Received[];
  /** The responses the client sent to the pushed requests, in order. */
  pushedAnswers: Json[];
  tasks: Map<string, HandshakeTask>;
  close(): Promise<void>;
}

const RELATED = 'io.modelcontextprotocol/related-task';

export async function startRawHandshakeTaskServer(
  tools: Record<string, HandshakeStep[]>,
  pollInterval = 30,
): Promise<RawHandshakeTaskServer> {
  const received: Received[] = [];
  const pushedAnswers: Json[] = [];
  const tasks = new Map<string, HandshakeTask>();
  const waitingFor = new Map<string, (result: Json) => void>();
  const streams = new Set<ServerResponse>();
  let next = 0;

  const shape = (task: HandshakeTask): Json => ({
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: new Date().toISOString(),
    ttl: 60_000,
    pollInterval,
  });
  const json = (response: ServerResponse, status: number, body: Json): void => {
    response
      .writeHead(status, { 'content-type': 'application/json', 'mcp-session-id': 'session-1' })
      .end(JSON.stringify(body));
  };
  const result = (id: unknown, value: Json): Json => ({ jsonrpc: '2.0', id, result: value });
  const error = (id: unknown, code: number, message: string): Json => ({
    jsonrpc: '2.0',
    id,
    error: { code, message },
  });

  /** `tasks/result`: push each question, wait for its answer, then send the result. */
  const streamResult = async (id: unknown, task: HandshakeTask, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'session-1' });
    streams.add(response);
    const send = (message: Json): void => {
      response.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    };
    for (const step of task.steps) {
      if ('hang' in step) {
        task.statusMessage = 'Still going';
        await new Promise<void>((resolve) => {
          const check = setInterval(() => {
            if (task.status === 'cancelled') {
              clearInterval(check);
              resolve();
            }
          }, 5);
        });
        send(error(id, -32603, `Task ${task.taskId} was cancelled`));
        response.end();
        return;
      }
      if ('ask' in step) {
        task.status = 'input_required';
        next += 1;
        const pushId = `push-${next}`;
        const answered = new Promise<Json>((resolve) => waitingFor.set(pushId, resolve));
        send({
          jsonrpc: '2.0',
          id: pushId,
          method: 'elicitation/create',
          params: { ...step.ask, _meta: { [RELATED]: { taskId: task.taskId } } },
        });
        task.answers.push(await answered);
        task.status = 'working';
        continue;
      }
      task.status = 'completed';
      const value = step.result(task.answers);
      send(result(id, { ...value, _meta: { [RELATED]: { taskId: task.taskId } } }));
      response.end();
      streams.delete(response);
      return;
    }
  };

  const server = createServer((request, response) => {
    if (request.method === 'GET') return void response.writeHead(405).end();
    if (request.method === 'DELETE') return void response.writeHead(200).end();
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const message = JSON.parse(body) as Json;
      if (!('method' in message)) {
        // A response to a pushed request.
        pushedAnswers.push(message);
        waitingFor.get(message.id as string)?.((message.result ?? {}) as Json);
        return void response.writeHead(202).end();
      }
      const { id, method } = message as { id: unknown; method: string };
      const params = (message.params ?? {}) as Json;
      received.push({ method, params, headers: request.headers });
      if (!('id' in message)) return void response.writeHead(202).end();
      switch (method) {
        case 'initialize':
          return json(
            response,
            200,
            result(id, {
              protocolVersion: '2025-11-25',
              capabilities: {
                tools: {},
                tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
              },
              serverInfo: { name: 'raw-handshake-tasks', version: '1.0.0' },
            }),
          );
        case 'tools/list':
          return json(
            response,
            200,
            result(id, {
              tools: Object.keys(tools).map((name) => ({
                name,
                inputSchema: { type: 'object' },
                execution: { taskSupport: 'required' },
              })),
            }),
          );
        case 'tools/call': {
          const steps = tools[params.name as string];
          if (steps === undefined) return json(response, 200, error(id, -32602, 'Unknown tool'));
          if (params.task === undefined) {
            return json(response, 200, error(id, -32601, 'This tool runs only as a task'));
          }
          next += 1;
          const task: HandshakeTask = {
            taskId: `handshake-${next}`,
            status: 'working',
            steps,
            answers: [],
            createdAt: new Date().toISOString(),
          };
          tasks.set(task.taskId, task);
          return json(response, 200, result(id, { task: shape(task) }));
        }
        case 'tasks/get':
        case 'tasks/cancel':
        case 'tasks/result': {
          const task = tasks.get(params.taskId as string);
          if (task === undefined) return json(response, 200, error(id, -32602, 'Task not found'));
          if (method === 'tasks/get') return json(response, 200, result(id, shape(task)));
          if (method === 'tasks/cancel') {
            if (['completed', 'failed', 'cancelled'].includes(task.status)) {
              return json(response, 200, error(id, -32602, 'Task already ended'));
            }
            task.status = 'cancelled';
            task.statusMessage = 'Cancelled by request';
            return json(response, 200, result(id, shape(task)));
          }
          void streamResult(id, task, response);
          return;
        }
        default:
          return json(response, 404, error(id, -32601, 'Method not found'));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    received,
    pushedAnswers,
    tasks,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
