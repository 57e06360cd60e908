import type { InputRequests, ToolCallResult } from '@parley/client';

/**
 * Which way a question reached the person, as the timeline labels it: the client's own form
 * (`elicitation`, or `elicitation, adapted: …` where the server changed fields the host cannot
 * draw), Parley's App (`App`: a tool result the page answers as the App would), or the
 * conversation (`conversation`: a result listing what to ask and which arguments to call again
 * with). The names below are what a Parley server puts on the wire; `@parley/server` exports
 * them, and the page does not depend on the server, so they are written here as the wire has
 * them.
 */

/** `_meta` of a form the server adapted to the host: the names of the fields it changed. */
const ADAPTED_META = 'dev.parley/adapted';
/** `_meta` of a tool result on the App route: the questions and the sealed state. */
const APP_ASK_META = 'dev.parley/ask';
/** `_meta` of the `'arguments'` fallback's result. */
const ARGUMENTS_NEEDED_META = 'parley/argumentsNeeded';

/** The app-only tool an App sends the person's answers with. */
export const APP_ANSWER_TOOL = 'parley_answer';

/** The MCP Apps extension, as a host that draws HTML Apps declares it. */
export const MCP_APPS_EXTENSION: Record<string, object> = {
  'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a round's questions reached the page. */
export type RoundRoute = 'elicitation' | 'app';

/** The label of one question of a round; none for sampling and roots, which have no routes. */
export function routeLabel(request: InputRequests[string], route: RoundRoute): string | undefined {
  if (request.method !== 'elicitation/create') return undefined;
  if (route === 'app') return 'App';
  const adapted = request.params._meta?.[ADAPTED_META];
  const fields = Array.isArray(adapted)
    ? adapted.filter((name): name is string => typeof name === 'string')
    : [];
  return fields.length > 0 ? `elicitation, adapted: ${fields.join(', ')}` : 'elicitation';
}

/** What an App result carries for the App (`@parley/server`'s `AppAsk`). */
export interface AppAsk {
  tool: string;
  arguments: Record<string, unknown>;
  inputRequests: InputRequests;
  requestState: string;
}

/** The App's questions in `result`, or `undefined` when it is not an App result. */
export function appAskOf(result: ToolCallResult): AppAsk | undefined {
  const ask = result._meta?.[APP_ASK_META];
  if (
    !isRecord(ask) ||
    typeof ask['tool'] !== 'string' ||
    !isRecord(ask['arguments']) ||
    !isRecord(ask['inputRequests']) ||
    typeof ask['requestState'] !== 'string'
  ) {
    return undefined;
  }
  return ask as unknown as AppAsk;
}

/** One question of an "arguments needed" result. */
export interface NeededAsk {
  key: string;
  message: string;
  /** `'missing'`, `'invalid'` (then `wording` says why), or `'user-only'`. */
  reason: string;
  wording?: string;
  arguments: string[];
}

/** The questions an "arguments needed" result lists, or none. */
export function argumentsNeededOf(result: ToolCallResult): NeededAsk[] {
  const needed = result._meta?.[ARGUMENTS_NEEDED_META];
  const asks = isRecord(needed) ? needed['asks'] : undefined;
  if (!Array.isArray(asks)) return [];
  return asks.filter(
    (ask): ask is NeededAsk =>
      isRecord(ask) &&
      typeof ask['key'] === 'string' &&
      typeof ask['message'] === 'string' &&
      typeof ask['reason'] === 'string' &&
      Array.isArray(ask['arguments']),
  );
}
