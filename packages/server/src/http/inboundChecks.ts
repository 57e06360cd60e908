import { isRecord } from '@parley/core';

import { claimsEnvelope, isServedModernVersion } from '../modern/envelope.ts';
import type { BodyRead } from './bodyReader.ts';
import { errorReply } from '../modern/errorReply.ts';
import type { Reply } from './wire.ts';

/**
 * The endpoint's first look at a request, before it is routed to an era: is its method one we
 * serve, its body JSON, a JSON-RPC message at all, modern traffic or the handshake era? Each
 * check names the problem, for the `4xx` it becomes.
 */

/** The methods anything here answers (`OPTIONS`: the OAuth metadata's CORS preflight). */
export const SERVED_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'DELETE', 'OPTIONS']);

/** `application/json`, with or without parameters. */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  if (value === 'application/json') return true;
  const type = value.split(';', 1)[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/**
 * Does an `Accept` header allow an answer as JSON or as an event stream (the two a POST can
 * get)? No header allows anything; a media range with `q=0` allows nothing. The usual header
 * (`application/json, text/event-stream`) is decided without parsing.
 */
export function acceptsAnswer(accept: string | null): boolean {
  if (accept === null) return true;
  if (
    !accept.includes('q=') &&
    (accept.includes('application/json') || accept.includes('text/event-stream'))
  ) {
    return true;
  }
  for (const range of accept.split(',')) {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    if (quality !== undefined && !(Number(quality.slice(2)) > 0)) continue;
    if (
      type === '*/*' ||
      type === 'application/*' ||
      type === 'application/json' ||
      type === 'text/*' ||
      type === 'text/event-stream'
    ) {
      return true;
    }
  }
  return false;
}

/** Is a parsed body modern traffic? By its envelope claim, or by a modern version header. */
export function isModernBody(body: unknown, versionHeader: string | null): boolean {
  if (claimsEnvelope(body)) return true;
  if (versionHeader === null || !isServedModernVersion(versionHeader.trim())) return false;
  // A modern header on a body without the envelope: the modern path refuses it clearly, unless
  // it is the handshake era itself.
  const method = (body as { method?: unknown } | null)?.method;
  return typeof method === 'string' && method !== 'initialize';
}

/** Why a message is not a JSON-RPC 2.0 message at all, or `undefined`. */
export function notJsonRpc(message: unknown): string | undefined {
  if (!isRecord(message)) return 'the body is not a JSON-RPC 2.0 message (an object)';
  if (message.jsonrpc !== '2.0') return 'the message lacks "jsonrpc": "2.0"';
  if (message.method !== undefined && typeof message.method !== 'string') {
    return 'the method must be a string';
  }
  if (message.method === undefined && !('result' in message) && !('error' in message)) {
    return 'the message is neither a request, a notification nor a response';
  }
  return undefined;
}

/** Why an `initialize` request is malformed, or `undefined`. */
export function initializeProblem(message: Record<string, unknown>): string | undefined {
  const params = message.params;
  if (!isRecord(params)) return 'initialize needs params (an object)';
  if (typeof params.protocolVersion !== 'string') return 'params.protocolVersion must be a string';
  if (!isRecord(params.capabilities)) return 'params.capabilities must be an object';
  const info = params.clientInfo;
  if (!isRecord(info) || typeof info.name !== 'string' || typeof info.version !== 'string') {
    return 'params.clientInfo must be { name, version } (strings)';
  }
  if (!('id' in message)) return 'initialize is a request: it needs an id';
  return undefined;
}

/** The answer to a body the endpoint could not read. */
export function unreadableReply(read: Exclude<BodyRead, { kind: 'body' }>, max: number): Reply {
  switch (read.kind) {
    case 'too-large':
      return errorReply('requestTooLarge', `Request body too large: the limit is ${max} bytes`, {
        headers: { connection: 'close' },
      });
    case 'busy':
      return errorReply(
        'serviceUnavailable',
        'Service Unavailable: the server is reading as many request bodies as it may; try again',
        { headers: { 'retry-after': '1' } },
      );
    case 'unreadable':
      return errorReply('parseError', `Parse error: ${read.reason}`);
  }
}
