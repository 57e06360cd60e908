import { supportsRequest, type ClientCapabilities } from '@parley/core';

import { askInfoOf } from '../../ask/builders.ts';
import type { FallbackAsk, ToolFallback } from './argumentSlots.ts';

/**
 * The `'arguments'` fallback for one client: which declared asks it cannot answer, so which slots
 * it is listed as the tool's arguments and which of a call's arguments stand in for answers.
 * Both read the same set, so a client is never listed what its calls would not accept.
 */

/** The declared asks `capabilities` cannot answer (optional ones count only for `countOptional`). */
export function unanswerableAsks(
  fallback: ToolFallback,
  capabilities: ClientCapabilities,
  countOptional = true,
): FallbackAsk[] {
  return fallback.asks.filter(
    (entry) =>
      !supportsRequest(capabilities, entry.ask) &&
      (countOptional || askInfoOf(entry.ask)?.optional !== true),
  );
}

/** The tool's input schema as `capabilities` sees it: with the arguments of the asks it cannot answer. */
export function listedInputSchema(
  base: Record<string, unknown>,
  fallback: ToolFallback,
  capabilities: ClientCapabilities,
): Record<string, unknown> {
  if (fallback.policy !== 'arguments') return base;
  const added = unanswerableAsks(fallback, capabilities).flatMap((entry) => entry.slots);
  if (added.length === 0) return base;
  const properties = { ...((base['properties'] as Record<string, unknown> | undefined) ?? {}) };
  for (const slot of added) properties[slot.argument] = slot.schema;
  return { ...base, type: 'object', properties };
}

/**
 * Split a call's arguments: the tool's own, for its schema and handler, and those standing in
 * for the answers `capabilities` cannot give (a client that can answer has no such arguments:
 * they were never listed to it, so they stay with the tool's own and its schema judges them).
 */
export function splitArguments(
  args: unknown,
  fallback: ToolFallback | undefined,
  capabilities: ClientCapabilities,
): { own: unknown; answers: Readonly<Record<string, unknown>> } {
  if (
    fallback?.policy !== 'arguments' ||
    typeof args !== 'object' ||
    args === null ||
    Array.isArray(args)
  ) {
    return { own: args, answers: {} };
  }
  const names = new Set(
    unanswerableAsks(fallback, capabilities).flatMap((entry) =>
      entry.slots.map((slot) => slot.argument),
    ),
  );
  if (names.size === 0) return { own: args, answers: {} };
  const own: Record<string, unknown> = {};
  const answers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    (names.has(name) ? answers : own)[name] = value;
  }
  return { own, answers };
}
