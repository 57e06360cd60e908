import {
  isInputRequiredResult,
  isRecord,
  type HandlerInfo,
  type InputRequiredResult,
  type ReadResourceResult,
} from '@parley/core';
import type { ResourceRoundResult } from '@parley/middleware';

import type { Context } from '../context.ts';
import type { Registry, ResourceDefinition, ResourceTemplateDefinition } from '../definitions.ts';
import type { ResourceReturn } from './returns.ts';
import type { ResultWire, RoundTarget } from './target.ts';

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** A resource's return value as a `resources/read` result (or an ask). */
export function toResourceResult(
  value: ResourceReturn,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult | InputRequiredResult {
  if (isInputRequiredResult(value)) return value;
  if (typeof value === 'string')
    return { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: value }] };
  if (value instanceof Uint8Array) {
    return {
      contents: [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: base64(value) }],
    };
  }
  if (isRecord(value) && Array.isArray(value.contents))
    return value as unknown as ReadResourceResult;
  return {
    contents: [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(value) }],
  };
}

/**
 * A final read that followed answers depends on them, and they are not part of any cache key:
 * on the modern protocol it says so with the strictest hints the spec allows (stale at once,
 * private), since the fields themselves are required on every read result.
 */
function finishRead(
  result: ReadResourceResult,
  wire: ResultWire,
  continuation: boolean,
): Record<string, unknown> {
  return wire.request.era === 'modern' && continuation
    ? { ...result, ttlMs: 0, cacheScope: 'private' }
    : (result as unknown as Record<string, unknown>);
}

function target(
  uri: string,
  definition: ResourceDefinition | ResourceTemplateDefinition,
  handler: HandlerInfo,
  read: (ctx: Context) => Promise<unknown>,
): RoundTarget {
  const { mimeType } = definition.options;
  return {
    handler,
    middlewareParams: { uri },
    bindingArguments: {},
    arguments: {},
    check: (value) => ({ ok: true, value }),
    run: async (_value, ctx) => toResourceResult((await read(ctx)) as never, uri, mimeType),
    normalise: (value) => value as ResourceRoundResult,
    finish: (result, wire, continuation) =>
      finishRead(result as ReadResourceResult, wire, continuation),
    askArguments: {},
    declaredAsks: definition.declaredAsks,
    maxReasks: definition.options.maxReasks,
    relayRound: definition.options.relayRound,
  };
}

/**
 * The target of a `resources/read` of `uri`: the resource registered at it, else the first
 * template it matches; `undefined` when nothing serves it.
 */
export function resourceTarget(registry: Registry, uri: string): RoundTarget | undefined {
  const fixed = registry.resources.get(uri);
  if (fixed !== undefined) {
    return target(
      uri,
      fixed,
      { kind: 'resource', name: uri, cacheable: fixed.options.cacheable === true },
      async (ctx) => fixed.handler(new URL(uri), ctx),
    );
  }
  for (const template of registry.templates) {
    const variables = template.matcher.match(uri);
    if (variables === null) continue;
    return target(
      uri,
      template,
      {
        kind: 'resourceTemplate',
        name: uri,
        uriTemplate: template.uriTemplate,
        cacheable: template.options.cacheable === true,
      },
      async (ctx) => template.handler(new URL(uri), variables, ctx),
    );
  }
  return undefined;
}
