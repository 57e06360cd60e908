import type { InputRequests } from './inputRequired.ts';
import { isRecord } from './isRecord.ts';

/**
 * The App route on the wire, as every side reads it: a Parley server ends a tool call's round
 * with a result whose `_meta[APP_ASK_META]` carries the questions and the sealed state, and the
 * person's answers come back through the app-only tool `APP_ANSWER_TOOL`.
 */

/** Where an App result keeps what the App draws and sends back. */
export const APP_ASK_META = 'dev.parley/ask';

/** The app-only tool the App sends the person's answers with. */
export const APP_ANSWER_TOOL = 'parley_answer';

/** What an App result carries for the App, under `_meta[APP_ASK_META]`. */
export interface AppAsk {
  /** The tool the questions come from, and the arguments it was called with. */
  tool: string;
  arguments: Record<string, unknown>;
  /** The questions, by key, in the vocabulary of the newest protocol. */
  inputRequests: InputRequests;
  /** The sealed state to send back with the answers. */
  requestState: string;
}

/** The App's questions in a tool result, or `undefined` when it is not an App result. */
export function appAskOf(result: {
  _meta?: Record<string, unknown> | undefined;
}): AppAsk | undefined {
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
