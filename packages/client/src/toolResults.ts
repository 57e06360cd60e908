import { isRecord, type ContentBlock, type Era, type Meta } from '@parley/core';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';

import type { ToolCallResult } from './types.ts';

/**
 * A tool's final result as Parley returns it, with `data`: the structured result as the tool
 * meant it.
 *
 * The handshake era's wire (2025-11-25) requires an object at the root of `structuredContent`
 * and of `outputSchema`, so an SDK server advertises a scalar (or array) output schema as
 * `{ type: 'object', properties: { result: <schema> }, required: ['result'] }` and sends the
 * value as `{ result: value }`. The listed schema is the only evidence of that wrapping, so
 * `data` is unwrapped exactly when the listed schema has that shape.
 */

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['$schema', 'type', 'properties', 'required']);

/**
 * True for the envelope the SDK wraps a non-object output schema in. An author's own
 * `{ result: <non-object> }` schema with no other keyword reads the same; that is the one
 * ambiguous case, and it resolves to the unwrapped value.
 */
export function isScalarEnvelope(schema: unknown): boolean {
  if (!isRecord(schema) || schema.type !== 'object') return false;
  if (!Object.keys(schema).every((key) => ENVELOPE_KEYS.has(key))) return false;
  const { properties, required } = schema;
  if (!isRecord(properties) || Object.keys(properties).join() !== 'result') return false;
  if (!Array.isArray(required) || required.length !== 1 || required[0] !== 'result') return false;
  const inner = properties.result;
  return isRecord(inner) && inner.type !== 'object';
}

/** The result of `callTool`; `tool` is the tool as listed, when known. */
export function toToolCallResult<TData>(
  raw: CallToolResult,
  era: Era,
  tool: Tool | undefined,
): ToolCallResult<TData> {
  const structured: unknown = raw.structuredContent;
  const wrapped =
    era === 'handshake' &&
    isScalarEnvelope(tool?.outputSchema) &&
    isRecord(structured) &&
    Object.hasOwn(structured, 'result');
  return {
    content: (raw.content ?? []) as ContentBlock[],
    structuredContent: structured,
    isError: raw.isError === true,
    data: (wrapped ? (structured as { result: unknown }).result : structured) as TData | undefined,
    ...(raw._meta !== undefined ? { _meta: raw._meta as Meta } : {}),
  };
}
