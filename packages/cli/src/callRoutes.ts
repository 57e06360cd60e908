import type { CallOptions, Client, Tool, ToolCallResult } from '@parley/client';

import { appAskOf, type AppAsk } from '@parley/core';

import { answerAppAsk } from './appRoute.ts';
import { argumentsNeededOf, askInConversation, type ArgumentsNeeded } from './conversationRoute.ts';
import type { QuestionAsker } from './elicitationPrompt.ts';
import { isDismissed, type Prompter } from './prompter.ts';

/**
 * A tool call past its first result: questions that came back in the result itself are asked
 * and answered, until the tool's own result comes. On the App route (`--as-app-host`) the answers
 * go back through the App's answer tool; on the conversation route (`--no-elicitation`, in a
 * terminal) the tool is called again with them as arguments. Elicitations need none of this:
 * the client's handler answers them within the call.
 */

/** As many rounds as the client allows a call by default. */
const MAX_ROUNDS = 10;

export interface CallRoutes {
  client: Client;
  prompter: Prompter;
  ask: QuestionAsker;
  tool: Tool;
  args: Record<string, unknown>;
  /** Without a terminal the conversation's questions are left in the result, for the reader. */
  interactive: boolean;
  options: CallOptions;
}

type Questions =
  { route: 'app'; ask: AppAsk } | { route: 'conversation'; needed: ArgumentsNeeded } | undefined;

/** The questions `result` brings back, by route. */
function questionsIn(result: ToolCallResult, interactive: boolean): Questions {
  const ask = appAskOf(result);
  if (ask !== undefined) return { route: 'app', ask };
  const needed = interactive ? argumentsNeededOf(result) : undefined;
  return needed === undefined ? undefined : { route: 'conversation', needed };
}

/** The result of the call once no question is left in it. */
export async function followRoutes(
  first: ToolCallResult,
  call: CallRoutes,
): Promise<ToolCallResult> {
  const { client, prompter, tool, options } = call;
  let result = first;
  let args = call.args;
  for (let round = 1; ; round += 1) {
    const questions = questionsIn(result, call.interactive);
    if (questions === undefined) return result;
    if (round > MAX_ROUNDS) {
      throw new Error(
        `${tool.name} asked more than ${MAX_ROUNDS} rounds of questions; parley stopped there.`,
      );
    }
    if (questions.route === 'app') {
      result = await answerAppAsk(client, questions.ask, round, call.ask, options);
      continue;
    }
    const given = await askInConversation(
      prompter,
      questions.needed,
      tool.inputSchema,
      round,
      options.signal,
    );
    if (given === undefined || isDismissed(given)) return result;
    args = { ...args, ...given };
    result = await client.callTool(tool.name, args, options);
  }
}
