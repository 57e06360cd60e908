/**
 * A server written only with the raw MCP SDK v2 (`McpServer`, `inputRequired`, `elicitInput`),
 * for interop tests: the Parley client must drive it in both eras. Modern requests reach it
 * through `createMcpHandler(...).fetch`; handshake sessions through `server.connect()`, where
 * the SDK's legacy shim turns every `inputRequired` round into real pushed requests.
 */
import {
  McpServer,
  acceptedContent,
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';

import type { InProcessServer } from '../../src/index.ts';

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** A one-field form schema. */
function field(name: string, type: 'string' | 'boolean' = 'string') {
  const property = type === 'string' ? { type: 'string' as const } : { type: 'boolean' as const };
  return { type: 'object' as const, properties: { [name]: property }, required: [name] };
}

/** What the server saw, for assertions. */
export interface SeenBySdkServer {
  /** Entries into `never_done` (modern: once per round). */
  neverDone: number;
  /** The `requestState` each retry of `echo_state` carried. */
  states: (string | undefined)[];
  /** The raw `inputResponses` of each `echo_state` entry. */
  responses: unknown[];
}

export function buildSdkV2Server(seen: SeenBySdkServer): McpServer {
  // The shim's own cap stays out of the way, so the client's bound is the one being tested.
  const server = new McpServer(
    { name: 'raw-sdk-v2', version: '2.4.0' },
    { inputRequired: { maxRounds: 100 } },
  );

  server.registerTool(
    'book_trip',
    { description: 'Two rounds, state in requestState' },
    async (ctx) => {
      const state = ctx.mcpReq.requestState<string>();
      if (state === undefined) {
        const where = acceptedContent<{ destination: string }>(
          ctx.mcpReq.inputResponses,
          'destination',
        );
        if (where === undefined) {
          return inputRequired({
            inputRequests: {
              destination: inputRequired.elicit({
                message: 'Where to?',
                requestedSchema: field('destination'),
              }),
            },
          });
        }
        return inputRequired({
          inputRequests: {
            date: inputRequired.elicit({
              message: `When to ${where.destination}?`,
              requestedSchema: field('date'),
            }),
          },
          requestState: JSON.stringify({ destination: where.destination }),
        });
      }
      const { destination } = JSON.parse(state) as { destination: string };
      const when = acceptedContent<{ date: string }>(ctx.mcpReq.inputResponses, 'date');
      return text(`Booked ${destination} on ${when?.date ?? '?'}`);
    },
  );

  server.registerTool('push_elicit', { description: 'Handshake-era push' }, async (ctx) => {
    const answer = await ctx.mcpReq.elicitInput({
      mode: 'form',
      message: 'Your name?',
      requestedSchema: field('name'),
    });
    return text(
      answer.action === 'accept' ? `Hello ${String(answer.content?.name)}` : answer.action,
    );
  });

  server.registerTool(
    'survey',
    { description: 'Sampling, roots and a question in one round' },
    async (ctx) => {
      const responses = ctx.mcpReq.inputResponses;
      const purpose = inputResponse(responses, 'purpose');
      const roots = inputResponse(responses, 'roots');
      const summary = inputResponse(responses, 'summary');
      if (purpose.kind === 'missing' || roots.kind !== 'roots' || summary.kind !== 'sampling') {
        return inputRequired({
          inputRequests: {
            purpose: inputRequired.elicit({
              message: 'Purpose?',
              requestedSchema: field('purpose'),
            }),
            roots: inputRequired.listRoots(),
            summary: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: 'Summarize' } }],
              maxTokens: 20,
            }),
          },
        });
      }
      const said = Array.isArray(summary.result.content)
        ? ''
        : (summary.result.content as { text?: string }).text;
      const why = purpose.kind === 'elicit' ? String(purpose.content?.purpose) : '?';
      return text(`${why} | ${roots.roots.map((r) => r.uri).join(',')} | ${said}`);
    },
  );

  server.registerTool('never_done', { description: 'Asks forever' }, async () => {
    seen.neverDone += 1;
    return inputRequired({
      inputRequests: {
        again: inputRequired.elicit({ message: 'Again?', requestedSchema: field('ok', 'boolean') }),
      },
    });
  });

  server.registerTool(
    'echo_state',
    { description: 'Records requestState on each entry' },
    async (ctx) => {
      const state = ctx.mcpReq.requestState<string>();
      seen.states.push(state);
      seen.responses.push(ctx.mcpReq.inputResponses);
      if (state === undefined) {
        return inputRequired({
          inputRequests: {
            ok: inputRequired.elicit({ message: 'OK?', requestedSchema: field('ok', 'boolean') }),
          },
          requestState: '{"opaque": "state", "spaces": "  kept  "}',
        });
      }
      if (state.startsWith('{')) return inputRequired({ requestState: 'state-only' });
      return text(`done after ${state}`);
    },
  );

  server.registerTool(
    'scalar_output',
    {
      description: 'A number as structured output',
      outputSchema: fromJsonSchema<number>({ type: 'number' }),
    },
    async () =>
      ({
        content: [{ type: 'text', text: '42' }],
        structuredContent: 42,
      }) as unknown as CallToolResult,
  );

  server.registerTool(
    'reserve_seat',
    {
      description: 'Asks for a seat, then answers with structured output',
      outputSchema: fromJsonSchema<{ seat: string }>({
        type: 'object',
        properties: { seat: { type: 'string' } },
        required: ['seat'],
      }),
    },
    async (ctx) => {
      const seat = acceptedContent<{ seat: string }>(ctx.mcpReq.inputResponses, 'seat');
      if (seat === undefined) {
        return inputRequired({
          inputRequests: {
            seat: inputRequired.elicit({ message: 'Which seat?', requestedSchema: field('seat') }),
          },
        }) as never;
      }
      return {
        content: [{ type: 'text', text: `Seat ${seat.seat}` }],
        structuredContent: { seat: seat.seat },
      };
    },
  );

  server.registerTool(
    'hang',
    { description: 'Never answers' },
    () => new Promise<CallToolResult>(() => {}),
  );

  server.registerPrompt('greet', { description: 'Asks for a name first' }, async (ctx) => {
    const who = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'who');
    if (who === undefined) {
      return inputRequired({
        inputRequests: {
          who: inputRequired.elicit({ message: 'Greet whom?', requestedSchema: field('name') }),
        },
      });
    }
    return { messages: [{ role: 'user', content: { type: 'text', text: `Greet ${who.name}` } }] };
  });

  server.registerResource('asks', 'test://asks', { mimeType: 'text/plain' }, async (uri, ctx) => {
    const choice = acceptedContent<{ format: string }>(ctx.mcpReq.inputResponses, 'format');
    if (choice === undefined) {
      return inputRequired({
        inputRequests: {
          format: inputRequired.elicit({ message: 'Format?', requestedSchema: field('format') }),
        },
      }) as InputRequiredResult;
    }
    return {
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: `report as ${choice.format}` }],
    };
  });

  return server;
}

/**
 * The raw SDK server as an in-process target: the same duck type a `ParleyServer` has, so the
 * Parley client reaches it without sockets in both eras.
 */
export function sdkV2Target(seen: SeenBySdkServer): InProcessServer {
  const handler = createMcpHandler(() => buildSdkV2Server(seen));
  return {
    connect: async (transport) => {
      const server = buildSdkV2Server(seen);
      await server.connect(transport as never);
      return { close: () => server.close() };
    },
    fetch: (request) => handler.fetch(request),
  };
}

export function freshSeen(): SeenBySdkServer {
  return { neverDone: 0, states: [], responses: [] };
}
