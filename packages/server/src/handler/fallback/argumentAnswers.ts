import { InvalidAnswerError, type InputRequest, type InputResponse } from '@parley/core';

import { readAnswer } from '../../ask/answers.ts';
import { askKindOf } from '../../ask/asked.ts';
import { problemOf, reaskRequest } from '../../ask/reask.ts';
import type { ArgumentSlot, FallbackAsk } from './argumentSlots.ts';

/**
 * Reading an ask's answer from the call's arguments, for the `'arguments'` fallback: the slots'
 * values made into the wire answer the client would have sent, then checked exactly like it:
 * the same errors, and for a bad value the wording a re-ask would have shown the user.
 */

/** An ask answered from arguments, or why not. */
export type ArgumentAnswer =
  | { kind: 'answer'; value: unknown }
  | { kind: 'missing' }
  | { kind: 'user-only' }
  | { kind: 'invalid'; wording: string };

function sameQuestion(declared: InputRequest, asked: InputRequest): boolean {
  if (askKindOf(declared) !== askKindOf(asked)) return false;
  if (declared.method !== 'elicitation/create' || asked.method !== 'elicitation/create')
    return true;
  if (declared.params.mode === 'url' || asked.params.mode === 'url') return true;
  return (
    JSON.stringify(declared.params.requestedSchema) === JSON.stringify(asked.params.requestedSchema)
  );
}

/**
 * `ask` (as the handler asked it under a declared key) answered from the call's `arguments`,
 * checked exactly as the client's answer would be: the same errors, and for a bad value the
 * wording a re-ask would show the user.
 *
 * @throws {TypeError} when the handler asks under a declared key something other than what was
 *   declared (another kind, other fields): the listing would not match what the call accepts.
 */
export function answerFromArguments(
  entry: FallbackAsk,
  ask: InputRequest,
  args: Readonly<Record<string, unknown>>,
): ArgumentAnswer {
  if (!sameQuestion(entry.ask, ask)) {
    throw new TypeError(
      `ctx.ask('${entry.key}'): the ask differs from the one declared in options.asks (its kind and ` +
        'fields must be the same; its message may change), so the arguments listed for it would not fit.',
    );
  }
  if (entry.userOnly.length > 0) return { kind: 'user-only' };
  const given = entry.slots.filter((slot) => args[slot.argument] !== undefined);
  if (given.length === 0) return { kind: 'missing' };
  const response = responseOf(entry, given, args);
  if (typeof response === 'string') return { kind: 'invalid', wording: response };
  try {
    return { kind: 'answer', value: readAnswer(ask, response, entry.key) };
  } catch (error) {
    if (!(error instanceof InvalidAnswerError)) throw error;
    return { kind: 'invalid', wording: wordingOf(ask, entry.key, error) };
  }
}

/** The wire answer the arguments make, or the reason they make none. */
function responseOf(
  entry: FallbackAsk,
  given: readonly ArgumentSlot[],
  args: Readonly<Record<string, unknown>>,
): InputResponse | string {
  const value = args[entry.key];
  switch (entry.kind) {
    case 'sampling':
      return typeof value === 'string'
        ? ({
            role: 'assistant',
            content: { type: 'text', text: value },
            model: 'tool-arguments',
          } as InputResponse)
        : `'${entry.key}' must be a string (the text to use).`;
    case 'roots':
      return Array.isArray(value) &&
        value.every((uri) => typeof uri === 'string' && URL.canParse(uri))
        ? ({ roots: value.map((uri: string) => ({ uri })) } as InputResponse)
        : `'${entry.key}' must be a list of absolute URIs.`;
    case 'url':
      return typeof value === 'boolean'
        ? ({ action: value ? 'accept' : 'decline' } as InputResponse)
        : `'${entry.key}' must be true (the user finished at the link) or false.`;
    case 'form': {
      if (entry.slots.length === 1 && entry.slots[0]!.field === undefined) {
        // An approve-only ask the author opened to the model.
        return typeof value === 'boolean'
          ? ({ action: value ? 'accept' : 'decline' } as InputResponse)
          : `'${entry.key}' must be true (approve) or false.`;
      }
      const content: Record<string, unknown> = {};
      for (const slot of given) content[slot.field!] = args[slot.argument];
      return { action: 'accept', content } as InputResponse;
    }
  }
}

/** The re-ask wording of a bad answer: what the user would have seen, said to the model. */
function wordingOf(ask: InputRequest, key: string, error: InvalidAnswerError): string {
  if (ask.method === 'elicitation/create' && ask.params.mode !== 'url') {
    const question = { message: ask.params.message, requestedSchema: ask.params.requestedSchema };
    return reaskRequest(question, problemOf(key, error)).params.message as string;
  }
  return error.data?.reason ?? error.message;
}
