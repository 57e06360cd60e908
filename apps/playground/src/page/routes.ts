import type { InputRequests, ToolCallResult } from '@parley/client';
import { isRecord } from '@parley/core';

/**
 * Which way a question reached the person, as the timeline labels it: the client's own form
 * (`elicitation`, or `elicitation, adapted: …` where the server changed fields the host cannot
 * draw), Parley's App (`App`: a tool result the page answers as the App would), or the
 * conversation (`conversation`: a result listing what to ask and which arguments to call again
 * with). The App route's own names and reader come from `@parley/core`, as every side reads
 * them; the others are what a Parley server puts on the wire, written here as the wire has them.
 */

/** `_meta` of a form the server adapted to the host: the names of the fields it changed. */
const ADAPTED_META = 'dev.parley/adapted';
/** `_meta` of the `'arguments'` fallback's result. */
const ARGUMENTS_NEEDED_META = 'parley/argumentsNeeded';

/** The MCP Apps extension, as a host that draws HTML Apps declares it. */
export const MCP_APPS_EXTENSION: Record<string, object> = {
  'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
};

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
