import {
  askKeyOf,
  JSON_RPC_ERROR_CODES,
  type InputRequest,
  type InputResponse,
} from '@parley/core';
import { ProtocolError, type Client as McpClient } from '@modelcontextprotocol/client';

import type { CallRegistry, CallState } from './callState.ts';
import { UnreadableSchemaError } from './errors.ts';
import type { InputAnswerer, InputHandlers } from './inputAnswerer.ts';
import { receivedParams } from './pushedSchemas.ts';
import type { RoundEvent } from './types.ts';

/**
 * The handshake era: the server pushes real `elicitation/create`, `sampling/createMessage` and
 * `roots/list` requests while a call is running, and the client answers them from the same
 * handlers as modern rounds.
 *
 * Attribution: nothing on the wire ties a pushed request to the call it serves (the related
 * request id is a transport hint that stdio and in-memory transports drop). So a pushed request
 * counts as one round of every call in flight when it arrives: exact with one call at a time,
 * and with several a call can only hit its bound early, never late.
 */

/** What answering pushed requests needs from the client. */
export interface PushedRequestsContext {
  answer: InputAnswerer;
  calls: CallRegistry;
  protocolVersion(): string;
  emit(event: RoundEvent): void;
}

/**
 * The answer to a request no call may take any more: every call it could belong to was stopped
 * by the client (over its bound, a handler failed, cancelled). An error rather than a decline,
 * so a server looping on its questions stops too.
 */
function refuse(): never {
  throw new ProtocolError(
    JSON_RPC_ERROR_CODES.internalError,
    'The client stopped the call this request belongs to (its round bound was reached, a handler failed, or it was cancelled).',
  );
}

/**
 * Count the request as a round of `call`; past its bound the call fails with the request as
 * its last ask, and `false` says this call no longer takes answers.
 */
function countRound(call: CallState, key: string, request: InputRequest): boolean {
  call.rounds += 1;
  if (call.rounds <= call.maxRounds) return true;
  call.fail(
    call.roundsExceeded({ resultType: 'input_required', inputRequests: { [key]: request } }),
  );
  return false;
}

async function answerPushed(
  request: InputRequest,
  key: string,
  serverSignal: AbortSignal,
  context: PushedRequestsContext,
): Promise<InputResponse> {
  const inFlight = context.calls.inFlight();
  const calls: CallState[] = [];
  for (const call of inFlight) if (countRound(call, key, request)) calls.push(call);
  if (calls.length === 0 && (inFlight.length > 0 || context.calls.hasRecentlyStopped())) refuse();
  const only = calls.length === 1 ? calls[0] : undefined;
  const resume = calls.map((call) => call.hold());
  try {
    const answering = (): Promise<InputResponse> =>
      context.answer(request, {
        era: 'handshake',
        protocolVersion: context.protocolVersion(),
        call: only?.info,
        round: only?.rounds ?? 0,
        key,
        signal: only === undefined ? serverSignal : AbortSignal.any([serverSignal, only.signal]),
      });
    // Timed under the call it serves, when it is known.
    const trace = only?.trace;
    const answer = await (trace === undefined
      ? answering()
      : trace.pushed(request.method, answering));
    for (const call of calls) {
      context.emit({
        era: 'handshake',
        call: call.info,
        round: call.rounds,
        maxRounds: call.maxRounds,
        asked: { [key]: request },
        answered: { [key]: answer },
      });
    }
    return answer;
  } catch (error) {
    // The call fails with the handler's error; the server gets an error for its request: its
    // own mistake as invalid params, with the reason, anything else as an internal error.
    for (const call of calls) call.fail(error);
    if (error instanceof UnreadableSchemaError) {
      const { field, reason } = error.data ?? {};
      throw new ProtocolError(JSON_RPC_ERROR_CODES.invalidParams, error.message, { field, reason });
    }
    throw error;
  } finally {
    for (const release of resume) release();
  }
}

/** Register the handlers a handshake-era server's requests reach (only those declared). */
export function registerPushedRequests(
  sdk: McpClient,
  handlers: InputHandlers,
  context: PushedRequestsContext,
): void {
  const handle = (
    request: { method: string; params?: unknown },
    ctx: { mcpReq: { id: string | number; signal: AbortSignal } },
  ): Promise<InputResponse> =>
    answerPushed(
      { method: request.method, params: receivedParams(request.params ?? {}) } as InputRequest,
      // The ask's key when the server names it (Parley's does, as the modern era would key
      // it); else the JSON-RPC id, the only name the request has.
      askKeyOf(request.params) ?? String(ctx.mcpReq.id),
      ctx.mcpReq.signal,
      context,
    );
  if (handlers.elicitationHandler) {
    sdk.setRequestHandler(
      'elicitation/create',
      async (request, ctx) => (await handle(request, ctx)) as never,
    );
  }
  if (handlers.samplingHandler) {
    sdk.setRequestHandler(
      'sampling/createMessage',
      async (request, ctx) => (await handle(request, ctx)) as never,
    );
  }
  if (handlers.roots) {
    sdk.setRequestHandler(
      'roots/list',
      async (request, ctx) => (await handle(request, ctx)) as never,
    );
  }
}
