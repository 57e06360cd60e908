import { isRecord, type Implementation } from '@parley/core';

import { isSealedAsk, markSealedAsk } from '../flow/seal.ts';
import { SERVER_INFO_KEY } from './envelope.ts';
import type { JsonRpcOut } from './messages.ts';

/**
 * A result as the 2026-07-28 wire carries it: `resultType` on every result (`complete` unless
 * the round asks), the required cache hints on the cacheable methods (the strictest values,
 * stale at once and private, unless the result set its own), and the server's identity in
 * `_meta` (unless the result set one).
 */

const CACHEABLE: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

function isTtl(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

export function encodeResult(
  method: string,
  result: Record<string, unknown>,
  serverInfo: Implementation,
): Record<string, unknown> {
  // The fields this may add come first, then the result's own: V8 adds properties to a spread
  // copy (`{ ...result }`) through its slow path, a microsecond each. (An `undefined` field is
  // not written by `JSON.stringify`, the only reader of what this returns.)
  const cacheable = CACHEABLE.has(method);
  const encoded: Record<string, unknown> = cacheable
    ? {
        resultType: 'complete',
        _meta: undefined,
        ttlMs: undefined,
        cacheScope: undefined,
        ...result,
      }
    : { resultType: 'complete', _meta: undefined, ...result };
  encoded.resultType ??= 'complete';
  if (encoded.resultType === 'complete' && cacheable) {
    if (!isTtl(encoded.ttlMs)) encoded.ttlMs = 0;
    if (encoded.cacheScope !== 'public' && encoded.cacheScope !== 'private') {
      encoded.cacheScope = 'private';
    }
  }
  const meta = encoded._meta;
  if (meta === undefined) encoded._meta = { [SERVER_INFO_KEY]: serverInfo };
  else if (isRecord(meta) && meta[SERVER_INFO_KEY] === undefined) {
    const merged: Record<string, unknown> = { [SERVER_INFO_KEY]: serverInfo, ...meta };
    merged[SERVER_INFO_KEY] = serverInfo;
    encoded._meta = merged;
  }
  // The copy carries the same sealed state as the ask it encodes: `replyJson` writes it as is.
  if (isSealedAsk(result)) markSealedAsk(encoded);
  return encoded;
}

const EMPTY_STATE_END = '"requestState":""}}';
/** What a sealed token is made of (`ps1.` and base64url): nothing JSON would escape. */
const TOKEN_TEXT = /^[\w.-]*$/;

/**
 * A reply as JSON text. A result whose `requestState` is a sealed token has the token written
 * in as it is: it is hundreds of characters that need no escaping, and V8 serialises a string
 * character by character (a large share of an asking round's serialisation). Any other reply,
 * or one not shaped as expected, is plain `JSON.stringify`.
 */
export function replyJson(message: JsonRpcOut): string {
  const result = (message as { result?: Record<string, unknown> }).result;
  if (result === undefined || !isSealedAsk(result)) return JSON.stringify(message);
  const token = result.requestState;
  // Changed since it was sealed (in place, by a middleware say): serialised like any other.
  if (typeof token !== 'string' || !TOKEN_TEXT.test(token)) return JSON.stringify(message);
  // The same representation (a string), so the object keeps its shape; restored at once.
  result.requestState = '';
  let json: string;
  try {
    json = JSON.stringify(message);
  } finally {
    result.requestState = token;
  }
  // The state is the result's last key and the result the message's: so it ends the text.
  return json.endsWith(EMPTY_STATE_END)
    ? `${json.slice(0, -EMPTY_STATE_END.length)}"requestState":"${token}"}}`
    : JSON.stringify(message);
}
