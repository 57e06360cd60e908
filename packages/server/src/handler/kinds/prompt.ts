import {
  isInputRequiredResult,
  isRecord,
  type GetPromptResult,
  type InputRequiredResult,
} from '@parley/core';
import type { PromptRoundResult } from '@parley/middleware';

import type { PromptDefinition } from '../definitions.ts';
import type { PromptReturn } from './returns.ts';
import { textBlock, type RoundTarget } from './target.ts';

/** A prompt's return value as a `prompts/get` result (or an ask). */
export function toPromptResult(value: PromptReturn): GetPromptResult | InputRequiredResult {
  if (isInputRequiredResult(value)) return value;
  if (typeof value === 'string') return { messages: [{ role: 'user', content: textBlock(value) }] };
  if (Array.isArray(value)) return { messages: value };
  if (isRecord(value) && Array.isArray(value.messages)) return value;
  throw new TypeError(
    'A prompt handler must return a string, messages, a GetPromptResult or inputRequired(...).',
  );
}

/** The target of a `prompts/get`. */
export function promptTarget(
  prompt: PromptDefinition,
  params: Record<string, unknown>,
): RoundTarget {
  const args = params.arguments;
  return {
    handler: { kind: 'prompt', name: prompt.name, cacheable: false },
    middlewareParams: { name: prompt.name, arguments: isRecord(args) ? args : {} },
    bindingArguments: args ?? {},
    arguments: args ?? {},
    check: (value) =>
      prompt.input === undefined ? { ok: true, value } : prompt.input.validate(value),
    run: async (value, ctx) => toPromptResult(await prompt.handler(value, ctx)),
    normalise: (value) => value as PromptRoundResult,
    finish: (result) => result as unknown as Record<string, unknown>,
    askArguments: {},
    declaredAsks: prompt.declaredAsks,
    maxReasks: prompt.options.maxReasks,
    relayRound: prompt.options.relayRound,
  };
}
