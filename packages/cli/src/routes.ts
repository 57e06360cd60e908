import { isRecord, type ElicitFormParams, type ElicitUrlParams } from '@parley/core';

/**
 * Which way a question reached the person, said in one line above it: the client's own form
 * (as written, or adapted to what the host draws), Parley's App (answered here, as the App would
 * answer it), or the conversation (arguments the tool is called again with). The names below are
 * what a Parley server puts on the wire (`@parley/server` exports them); the CLI may not depend
 * on the server (scripts/packageGraph.js), so they are written here, as the wire has them.
 */

/** `_meta` of a form the server adapted to the host: the names of the fields it changed. */
export const ADAPTED_META = 'dev.parley/adapted';
/** `_meta` of the `'arguments'` fallback's result: what to ask, and which arguments to send. */
export const ARGUMENTS_NEEDED_META = 'parley/argumentsNeeded';

/** The MCP Apps extension, as a host that draws HTML Apps declares it. */
export const MCP_APPS_EXTENSION: Readonly<Record<string, object>> = Object.freeze({
  'io.modelcontextprotocol/ui': Object.freeze({ mimeTypes: ['text/html;profile=mcp-app'] }),
});

export const APP_ROUTE = 'App (answered here, as the App would)';
export const CONVERSATION_ROUTE = 'conversation (arguments)';

function adaptedFields(meta: unknown): string[] {
  const adapted = isRecord(meta) ? meta[ADAPTED_META] : undefined;
  return Array.isArray(adapted)
    ? adapted.filter((name): name is string => typeof name === 'string')
    : [];
}

function appUri(meta: unknown): string | undefined {
  const ui = isRecord(meta) ? meta['ui'] : undefined;
  const uri = isRecord(ui) ? ui['resourceUri'] : undefined;
  return typeof uri === 'string' ? uri : undefined;
}

/** The route of an elicitation the client was sent (pushed, or in an `input_required` result). */
export function elicitationRoute(params: ElicitFormParams | ElicitUrlParams): string {
  if (params.mode === 'url') return 'elicitation (a URL to open)';
  const adapted = adaptedFields(params._meta);
  if (adapted.length > 0) return `elicitation, adapted for this host: ${adapted.join(', ')}`;
  const app = appUri(params._meta);
  // SEP-3118: the server names an App a host may draw the form with; the CLI draws its own.
  if (app !== undefined) return `elicitation (the client's own form; the server offers ${app})`;
  return "elicitation (the client's own form)";
}
