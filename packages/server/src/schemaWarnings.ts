import type { ElicitationSchema, ElicitRequest, HandlerInfo } from '@parley/core';
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

const LABEL: Record<HandlerInfo['kind'], string> = {
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
  return (source, schema) => {
    const { handler, key } = source;
    const id = `${handler.kind}\u0000${handler.name}\u0000${JSON.stringify(schema)}`;
    if (seen.has(id)) return;
    if (seen.size < MAX_REMEMBERED) seen.add(id);
    const where = `${LABEL[handler.kind]} '${handler.name}'${key !== undefined ? `, ask '${key}'` : ''}`;
    for (const warning of lintElicitationSchema(schema))
      report(`${where}: ${warning.message}`, source);
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
