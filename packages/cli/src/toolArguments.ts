import { isRecord } from '@parley/core';

import type { ArgumentSpec } from './parseArgs.ts';
import { schemaType, type ArgumentSchema } from './renderResult.ts';
import { UsageError } from './usage.ts';

/**
 * `key=value` words into the arguments object of a call. The tool's `inputSchema` says what
 * each value is, so `id=0001` stays the string a string property wants while `count=3` becomes
 * the number an integer property wants.
 */

export type PropertySchema = { type?: unknown };

function jsonOr(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** `raw` as the value `schema` wants; a `UsageError` that says why when it is not one. */
export function typedValue(key: string, raw: string, schema: PropertySchema | undefined): unknown {
  const types = Array.isArray(schema?.type) ? (schema.type as unknown[]) : [schema?.type];
  if (types.includes('string')) return raw;
  if (types.includes('number') || types.includes('integer')) {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) {
      throw new UsageError(`${key} must be a number, got ${JSON.stringify(raw)}.`);
    }
    return value;
  }
  if (types.includes('boolean')) {
    if (raw === 'true' || raw === 'false') return raw === 'true';
    throw new UsageError(`${key} must be true or false, got ${JSON.stringify(raw)}.`);
  }
  if (types.includes('object') || types.includes('array')) {
    const refused = new UsageError(
      `${key} must be JSON (${types.join(' or ')}), got ${JSON.stringify(raw)}.`,
    );
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw refused;
    }
    const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    if (!types.includes(kind)) throw refused;
    return value;
  }
  // No schema for it: JSON when it reads as JSON (3, true, [..]), the text otherwise.
  return jsonOr(raw);
}

/** The arguments of a tool call; `inputSchema` is the tool's, when it was listed. */
export function toolArguments(spec: ArgumentSpec, inputSchema: unknown): Record<string, unknown> {
  const properties =
    typeof inputSchema === 'object' && inputSchema !== null
      ? ((inputSchema as { properties?: Record<string, PropertySchema> }).properties ?? {})
      : {};
  const args: Record<string, unknown> = { ...spec.json };
  for (const [key, raw] of spec.pairs) args[key] = typedValue(key, raw, properties[key]);
  return args;
}

/**
 * The properties `inputSchema` declares, when it takes no others: `additionalProperties` (or
 * `patternProperties`) not given as allowing more. JSON Schema would allow any other key when
 * `additionalProperties` is left out, but servers leave it out of nearly every schema, and a
 * key the tool does not know is a typo the person wants to hear of before the call.
 */
function declaredProperties(inputSchema: unknown): Record<string, ArgumentSchema> | undefined {
  if (!isRecord(inputSchema) || !isRecord(inputSchema.properties)) return undefined;
  const extra = inputSchema.additionalProperties;
  if (extra === true || isRecord(extra) || inputSchema.patternProperties !== undefined)
    return undefined;
  return inputSchema.properties as Record<string, ArgumentSchema>;
}

/**
 * Refuse arguments `tool` does not declare, with a `UsageError` naming them and the arguments
 * it has: `greet has no argument foo; its arguments are: name (string, required), greeting
 * (string).`
 */
export function refuseUndeclared(
  tool: string,
  args: Record<string, unknown>,
  inputSchema: unknown,
): void {
  const properties = declaredProperties(inputSchema);
  if (properties === undefined) return;
  const unknown = Object.keys(args).filter((key) => !Object.hasOwn(properties, key));
  if (unknown.length === 0) return;
  const required = new Set(
    isRecord(inputSchema) && Array.isArray(inputSchema.required) ? inputSchema.required : [],
  );
  const declared = Object.entries(properties).map(
    ([name, property]) =>
      `${name} (${schemaType(property)}${required.has(name) ? ', required' : ''})`,
  );
  const named = `${tool} has no argument${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}`;
  throw new UsageError(
    declared.length === 0
      ? `${named}; it takes no arguments.`
      : `${named}; its arguments are: ${declared.join(', ')}.`,
  );
}

/** The arguments of a prompt, which are always strings. */
export function promptArguments(spec: ArgumentSpec): Record<string, string> {
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(spec.json)) {
    if (typeof value !== 'string') {
      throw new UsageError(
        `Prompt arguments are strings; --args has ${key}: ${JSON.stringify(value)}.`,
      );
    }
    args[key] = value;
  }
  for (const [key, value] of spec.pairs) args[key] = value;
  return args;
}
