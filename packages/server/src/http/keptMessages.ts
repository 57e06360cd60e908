import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

import type { Sdk } from '../utils/loadSdk.ts';

import type { Responder } from './wire.ts';

/**
 * The messages of calls kept for another replica (`handover.ts`), as their replicas read them:
 * which requests are kept, what counts as the same question on a later run, a kept answer as
 * what its push resolves with, and where a rebuilt session's replayed `initialize` answer goes.
 */

/** One question a call pushed to its client. */
export interface PushedQuestion {
  /** The JSON-RPC id the client answers. */
  id: RequestId;
  method: string;
  params: unknown;
}

function isResponseTo(message: JSONRPCMessage, id: RequestId): boolean {
  const candidate = message as { id?: unknown; result?: unknown; error?: unknown };
  return candidate.id === id && ('result' in candidate || 'error' in candidate);
}

/** Does `events` (as replayed) hold the response to `id`? */
export function holdsResponse(events: readonly JSONRPCMessage[], id: RequestId): boolean {
  return events.some((message) => isResponseTo(message, id));
}

/** A question as compared across runs: a URL elicitation's random id does not count. */
export function sameQuestion(question: PushedQuestion, method: string, params: unknown): boolean {
  if (question.method !== method) return false;
  const plain = (value: unknown) => {
    if (typeof value !== 'object' || value === null) return JSON.stringify(value);
    const { _meta: _m, elicitationId: _e, ...rest } = value as Record<string, unknown>;
    return JSON.stringify(rest);
  };
  return plain(question.params) === plain(params);
}

/**
 * The kept answer as what the push it answers resolves with (or rejects with, as the SDK would:
 * `sdk` is loaded by then, as a session exists; never imported here, so a modern-only server
 * does not load it).
 */
export function settleAnswer(answer: JSONRPCMessage, sdk: Sdk): unknown {
  const { result, error } = answer as {
    result?: unknown;
    error?: { code: number; message: string; data?: unknown };
  };
  if (error !== undefined) throw new sdk.ProtocolError(error.code, error.message, error.data);
  return result;
}

export function isResponse(
  message: JSONRPCMessage,
): message is JSONRPCMessage & { id?: RequestId } {
  return 'result' in message || 'error' in message;
}

export function isRequest(
  message: JSONRPCMessage,
): message is JSONRPCMessage & { id: RequestId; method: string; params?: unknown } {
  return 'method' in message && 'id' in message;
}

/** The calls another replica can take over: the rounds, which may ask the person something. */
const KEPT_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

export function isKeptCall(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  if (!isRequest(message) || !KEPT_METHODS.has(message.method)) return false;
  return (message.params as { task?: unknown } | undefined)?.task === undefined;
}

/** Where a rebuilt session's replayed `initialize` answer goes: nowhere, once it is made. */
export function discard(done: () => void): Responder {
  return {
    send: done,
    events: () => {
      throw new Error('SessionTransport: a rebuilt session streams nothing of its initialize');
    },
    web: done,
  };
}
