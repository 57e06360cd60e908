import {
  handlerLabel,
  type ElicitationSchema,
  type HandlerInfo,
  type InputRequest,
} from '@parley/core';
import { compileResponseType, lintElicitationSchema, type ResponseType } from '@parley/schema';

/**
 * Compatibility warnings about the schemas a server asks with (`lintElicitationSchema`):
 * reported once per handler and schema, when an ask is declared at registration or first sent.
 */

/** What a warning is about: the handler, and the ask's key when it has one. */
export interface WarningSource {
  handler: HandlerInfo;
  key?: string;
}

export type WarningReporter = (message: string, source: WarningSource) => void;

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
  // And a tool's handler info is one object for all its rounds: the pair known by identity
  // skips even the handler's id (a string built and hashed on every asking round).
  const seenPairs = new WeakMap<object, WeakSet<HandlerInfo>>();
  return (source, schema) => {
    const { handler, key } = source;
    let pairs = seenPairs.get(schema);
    if (pairs?.has(handler) === true) return;
    if (pairs === undefined) seenPairs.set(schema, (pairs = new WeakSet()));
    pairs.add(handler);
    const handlerId = `${handler.kind}\u0000${handler.name}`;
    let handlers = seenObjects.get(schema);
    if (handlers?.has(handlerId) === true) return;
    if (handlers === undefined) seenObjects.set(schema, (handlers = new Set()));
    handlers.add(handlerId);
    const id = `${handlerId}\u0000${JSON.stringify(schema)}`;
    if (seen.has(id)) return;
    if (seen.size < MAX_REMEMBERED) seen.add(id);
    const label = `${handlerLabel(handler)}${key !== undefined ? `, ask '${key}'` : ''}`;
    for (const warning of lintElicitationSchema(schema))
      report(`${label}: ${warning.message}`, source);
  };
}

/**
 * An ask declared at registration: the very ask the handler passes to `ctx.ask` (built by
 * `elicitRequest`, `elicitUrlRequest`, `sampleRequest`, `rootsRequest`), or a bare response type.
 */
export type DeclaredAsk = ResponseType | InputRequest;

/** True when a declared ask is a request (built by a builder or by hand), not a response type. */
export function isDeclaredRequest(value: unknown): value is InputRequest {
  const method = (value as { method?: unknown } | null)?.method;
  return (
    typeof value === 'object' &&
    value !== null &&
    (method === 'elicitation/create' ||
      method === 'sampling/createMessage' ||
      method === 'roots/list')
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
  if (isDeclaredRequest(ask)) {
    return ask.method === 'elicitation/create' && ask.params.mode !== 'url'
      ? ask.params.requestedSchema
      : undefined;
  }
  try {
    return compileResponseType(ask).requestedSchema;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(`${api}: ask '${key}': ${reason}`, { cause: error });
  }
}
