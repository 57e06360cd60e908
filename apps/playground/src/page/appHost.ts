import type { Client, ElicitResult, InputContext, ToolCallResult } from '@parley/client';

import { askElicitation } from './asks.ts';
import { APP_ANSWER_TOOL, appAskOf } from '@parley/core';
import type { CallEntry } from './timeline.ts';

/**
 * The page as a host that draws MCP Apps and cannot ask. A Parley server with the App route
 * answers its tool calls with a result for Parley's App: the questions and the sealed state in
 * `_meta['dev.parley/ask']`. The page does what the App would (without drawing the App itself):
 * it renders each question with `@parley/forms`, sends the answers with the app-only tool
 * `parley_answer`, and reads what comes back, the next questions or the tool's result. Each
 * round goes on the timeline, its questions labelled `App`.
 */

/** As many rounds as the client allows a call by default. */
const MAX_ROUNDS = 10;

export interface AppHostCall {
  client: Client;
  /** Where the questions are rendered. */
  region: HTMLElement;
  entry: CallEntry;
  signal: AbortSignal;
}

/** The tool's result once every question its App results brought is answered. */
export async function answerThroughApp(
  first: ToolCallResult,
  { client, region, entry, signal }: AppHostCall,
): Promise<ToolCallResult> {
  let result = first;
  for (let round = 1; ; round += 1) {
    const ask = appAskOf(result);
    if (ask === undefined) return result;
    if (round > MAX_ROUNDS) {
      throw new Error(`${ask.tool} asked more than ${MAX_ROUNDS} rounds of questions.`);
    }
    const call = { method: 'tools/call' as const, name: ask.tool };
    const answers = await Promise.all(
      Object.entries(ask.inputRequests).map(
        async ([key, request]): Promise<[string, ElicitResult]> => {
          if (request.method !== 'elicitation/create' || request.params.mode === 'url') {
            throw new Error(
              `${ask.tool} asked for ${request.method} on the App route, which answers forms only.`,
            );
          }
          const ctx: InputContext = {
            era: client.era ?? 'modern',
            protocolVersion: client.protocolVersion ?? '',
            call,
            round,
            key,
            signal,
          };
          return [key, await askElicitation(region, request.params, ctx)];
        },
      ),
    );
    const inputResponses = Object.fromEntries(answers);
    entry.round(
      {
        era: client.era ?? 'modern',
        call,
        round,
        maxRounds: MAX_ROUNDS,
        asked: ask.inputRequests,
        answered: inputResponses,
        requestState: ask.requestState,
      },
      'app',
    );
    result = await client.callTool(
      APP_ANSWER_TOOL,
      {
        tool: ask.tool,
        arguments: ask.arguments,
        requestState: ask.requestState,
        inputResponses,
      },
      { signal },
    );
  }
}
