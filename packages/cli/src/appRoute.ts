import type { CallOptions, Client, ToolCallResult } from '@parley/client';
import { APP_ANSWER_TOOL, type AppAsk, type ElicitResult } from '@parley/core';
import { createResponseType } from '@parley/schema';

import type { QuestionAsker } from './elicitationPrompt.ts';
import { APP_ROUTE } from './routes.ts';

/**
 * `parley call --as-app-host`: the CLI is a host that draws MCP Apps and cannot elicit. A Parley
 * server with the App route answers such a call with a tool result for its App: the questions
 * and the sealed state in `_meta['dev.parley/ask']`. The CLI does what the App would: it asks
 * each question (with the prompts of any other form), sends the answers with the app-only tool
 * `parley_answer`, and reads what comes back: the next questions, or the tool's result.
 */

/** The App answers forms only; anything else on this route is the server's mistake. */
class NotAForm extends Error {
  constructor(tool: string, key: string, method: string) {
    super(
      `${tool} asked for ${method === 'elicitation/create' ? 'a URL to open' : method} (${key}) on the App route, which answers forms only.`,
    );
    this.name = 'NotAForm';
  }
}

/**
 * Answer one App result's questions in the terminal and send the answers; resolves to what the
 * server returns for them (the next App result, or the tool's result). `round` numbers the
 * questions' heading.
 */
export async function answerAppAsk(
  client: Client,
  ask: AppAsk,
  round: number,
  askQuestion: QuestionAsker,
  options: CallOptions,
): Promise<ToolCallResult> {
  const signal = options.signal ?? new AbortController().signal;
  const inputResponses: Record<string, ElicitResult> = {};
  for (const [key, request] of Object.entries(ask.inputRequests)) {
    if (request.method !== 'elicitation/create' || request.params.mode === 'url') {
      throw new NotAForm(ask.tool, key, request.method);
    }
    inputResponses[key] = await askQuestion(
      request.params,
      createResponseType(request.params.requestedSchema),
      {
        heading: `${ask.tool} asks (round ${round})`,
        route: APP_ROUTE,
        round: `app ${ask.tool} ${round}`,
        signal,
      },
    );
  }
  return client.callTool(
    APP_ANSWER_TOOL,
    {
      tool: ask.tool,
      arguments: ask.arguments,
      requestState: ask.requestState,
      inputResponses,
    },
    options,
  );
}
