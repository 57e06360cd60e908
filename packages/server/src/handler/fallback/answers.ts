import {
  requiredCapabilities,
  ToolResult,
  type ClientCapabilities,
  type InputRequest,
} from '@parley/core';

import { readAnswer } from '../../ask/answers.ts';
import type { Flow } from '../../flow/flow.ts';
import type { Context } from '../context.ts';
import { answerFromArguments } from './argumentAnswers.ts';
import type { ToolFallback } from './argumentSlots.ts';
import { argumentsNeededResult, type NeededAsk } from './argumentsNeeded.ts';
import { unanswerableAsks } from './listedArguments.ts';

/**
 * Where `ctx.ask` meets the fallback: the asks this client cannot answer are answered by the
 * tool's policy, or fail as they always did, or end the call with a result for the model.
 */

/** A tool round's fallback: the policy, and the arguments standing in for answers. */
export interface RoundFallback {
  tool: string;
  fallback: ToolFallback;
  arguments: Readonly<Record<string, unknown>>;
  /** What may be asked this round (`AskReach.capabilities`). */
  capabilities: ClientCapabilities;
}

/**
 * Answers, by key, to `asks` (none of which this client can answer), from the tool's fallback.
 * `fail(ask)` throws the error the ask fails with under `'error'` (and `'hide'`, and for an ask
 * the tool did not declare). A fallback that ends the call (a custom one's result, or the
 * arguments the call still needs) ends it through the flow, which keeps the result: a handler
 * that catches the end still ends with it, having no answer to go on with.
 */
export async function fallbackAnswers(
  round: RoundFallback | undefined,
  context: Context,
  flow: Flow,
  asks: readonly (readonly [string, InputRequest])[],
  fail: (ask: InputRequest) => never,
): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  const policy = round?.fallback.policy;
  if (round === undefined || policy === 'error' || policy === 'hide') return fail(asks[0]![1]);
  if (typeof policy === 'function') {
    for (const [key, ask] of asks) {
      const given = await policy({
        key,
        ask,
        requiredCapabilities: requiredCapabilities(ask),
        context,
      });
      if (given === undefined) fail(ask);
      if (given instanceof ToolResult) flow.end(given);
      answers[key] = readAnswer(ask, given, key);
    }
    return answers;
  }
  const needed: NeededAsk[] = [];
  for (const [key, ask] of asks) {
    const entry = round.fallback.asks.find((declared) => declared.key === key);
    if (entry === undefined) fail(ask);
    const answer = answerFromArguments(entry, ask, round.arguments);
    if (answer.kind === 'answer') answers[key] = answer.value;
    else if (answer.kind === 'invalid')
      needed.push({ entry, ask, why: 'invalid', wording: answer.wording });
    else needed.push({ entry, ask, why: answer.kind });
  }
  if (needed.length === 0) return answers;
  // The model is told everything this client will have to send, not one question per call: the
  // declared asks still ahead whose arguments are not there yet come after the one at hand.
  for (const entry of unanswerableAsks(round.fallback, round.capabilities)) {
    if (needed.some((item) => item.entry === entry) || Object.hasOwn(answers, entry.key)) continue;
    const given = entry.slots.some((slot) => round.arguments[slot.argument] !== undefined);
    if (entry.userOnly.length > 0) needed.push({ entry, ask: entry.ask, why: 'user-only' });
    else if (!given) needed.push({ entry, ask: entry.ask, why: 'missing' });
  }
  return flow.end(argumentsNeededResult(round.tool, needed));
}
