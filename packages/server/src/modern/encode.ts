import type { Implementation } from '@parley/core';

import { SERVER_INFO_KEY } from './envelope.ts';

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTtl(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

export function encodeResult(
  method: string,
  result: Record<string, unknown>,
  serverInfo: Implementation,
): Record<string, unknown> {
  const resultType = result.resultType ?? 'complete';
  const encoded: Record<string, unknown> = { ...result, resultType };
  if (resultType === 'complete' && CACHEABLE.has(method)) {
    if (!isTtl(encoded.ttlMs)) encoded.ttlMs = 0;
    if (encoded.cacheScope !== 'public' && encoded.cacheScope !== 'private') {
      encoded.cacheScope = 'private';
    }
  }
  const meta = encoded._meta;
  if (meta === undefined) encoded._meta = { [SERVER_INFO_KEY]: serverInfo };
  else if (isRecord(meta) && meta[SERVER_INFO_KEY] === undefined) {
    encoded._meta = { ...meta, [SERVER_INFO_KEY]: serverInfo };
  }
  return encoded;
}
