import type { ElicitationSchema, ElicitRequest } from '@parley/core';
import { compileResponseType, lintElicitationSchema, type ResponseType } from '@parley/schema';

import type { HandlerTarget } from './context.ts';

/**
 * Compatibility warnings about the schemas a server asks with (`lintElicitationSchema`):
 * reported once per handler and schema, when an ask is declared at registration or first sent.
 */

/** Where a warning is about. */
export interface WarningSource extends HandlerTarget {
  /** The ask's key, when it has one. */
  key?: string;
}

export type WarningReporter = (message: string, source: WarningSource) => void;

const LABEL: Record<HandlerTarget['kind'], string> = {
  tool: 'Tool',
  prompt: 'Prompt',
  resource: 'Resource',
  resourceTemplate: 'Resource template',
};

/** How many distinct schemas a server remembers having linted (a bound, not a target). */
const MAX_REMEMBERED = 1000;

/** A linter that reports each schema's warnings once per handler. */
export function createSchemaLinter(
  report: WarningReporter,
): (source: WarningSource, schema: ElicitationSchema) => void {
  const seen = new Set<string>();
  // The same schema object comes back on every round (response types compile once): known by
  // identity, it is not serialised again.
  const seenObjects = new WeakMap<object, Set<string>>();
  return (source, schema) => {
    const handler = `${source.kind}\u0000${source.name}`;
    let handlers = seenObjects.get(schema);
    if (handlers?.has(handler) === true) return;
    if (handlers === undefined) seenObjects.set(schema, (handlers = new Set()));
    handlers.add(handler);
    const id = `${handler}\u0000${JSON.stringify(schema)}`;
    if (seen.has(id)) return;
    if (seen.size < MAX_REMEMBERED) seen.add(id);
    const label = `${LABEL[source.kind]} '${source.name}'${source.key !== undefined ? `, ask '${source.key}'` : ''}`;
    for (const warning of lintElicitationSchema(schema))
      report(`${label}: ${warning.message}`, source);
  };
}

/** An ask declared at registration: a response type, or a request built by `elicitRequest`. */
export type DeclaredAsk = ResponseType | ElicitRequest;

/** True when a declared ask is a request built by `elicitRequest` (or by hand). */
export function isDeclaredElicitRequest(value: unknown): value is ElicitRequest {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { method?: unknown }).method === 'elicitation/create'
  );
}

/**
 * The schema of a declared ask, compiled now so a type the spec cannot express fails at
 * registration, with the handler and key in the message.
 */
export function declaredSchema(
  api: string,
  key: string,
  ask: DeclaredAsk,
): ElicitationSchema | undefined {
  if (isDeclaredElicitRequest(ask))
    return ask.params.mode === 'url' ? undefined : ask.params.requestedSchema;
  try {
    return compileResponseType(ask).requestedSchema;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(`${api}: ask '${key}': ${reason}`, { cause: error });
  }
}
