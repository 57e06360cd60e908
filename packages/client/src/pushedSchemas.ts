import { isRecord } from '@parley/core';
import type { Transport } from '@modelcontextprotocol/client';

/**
 * The handshake era's pushed `elicitation/create` reaches the client's handler only after the
 * SDK checked it against the spec's schema, which refuses the whole request for a schema that is
 * near the spec but not on it (FastMCP's multi-select, say): the handler is never called, while
 * the modern era, which Parley reads itself, takes the same schema. So the received schema is
 * taken out of the SDK's sight before it checks, and put back for the client's one reading (see
 * `receivedSchema.ts`): both eras read the same schema the same way.
 */

/** Where the received schema rides past the SDK's check (its top level lets unknown keys through). */
const RECEIVED = 'dev.parley/receivedSchema';

/** What the SDK checks instead: an empty form, with the received schema beside it. */
function standIn(received: unknown): Record<string, unknown> {
  return { type: 'object', properties: {}, [RECEIVED]: { schema: received } };
}

/** Wrap `transport` so every pushed form-mode `elicitation/create` carries its schema past the SDK. */
export function carryPushedSchemas(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message, extra) => {
    const request = message as { id?: unknown; method?: unknown; params?: unknown };
    const { params } = request;
    if (
      request.method !== 'elicitation/create' ||
      request.id === undefined ||
      !isRecord(params) ||
      params.mode === 'url'
    ) {
      return deliver(message, extra);
    }
    // A new message: an in-process server may still hold the one it sent.
    const carried = { ...params, requestedSchema: standIn(params.requestedSchema) };
    return deliver({ ...message, params: carried } as typeof message, extra);
  };
}

/** The params of a pushed request as the server sent them (the received schema put back). */
export function receivedParams(params: unknown): unknown {
  if (!isRecord(params) || !isRecord(params.requestedSchema)) return params;
  const carried = params.requestedSchema[RECEIVED];
  if (!isRecord(carried)) return params;
  const { requestedSchema: _standIn, ...rest } = params;
  return carried.schema === undefined ? rest : { ...rest, requestedSchema: carried.schema };
}
