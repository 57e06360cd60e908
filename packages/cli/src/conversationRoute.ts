import type { ToolCallResult } from '@parley/client';
import { isRecord } from '@parley/core';

import { askArguments } from './argumentPrompt.ts';
import { DECLINED, DISMISS_KEYS, isDismissed, type Dismissed, type Prompter } from './prompter.ts';
import { ARGUMENTS_NEEDED_META, CONVERSATION_ROUTE } from './routes.ts';

/**
 * The conversation route: a client that cannot ask (`--no-elicitation`) calls a tool whose server
 * falls back to arguments (`askFallback: 'arguments'`), and gets a result saying which questions
 * to put to the person and which arguments to call again with, structured under
 * `_meta['parley/argumentsNeeded']`. In a terminal the CLI does what the model in a conversation
 * would: it puts each question to the person, asks for its arguments with the prompts of missing
 * arguments, and calls the tool again with them.
 */

/** One question the call could not take from its arguments. */
export interface NeededAsk {
  key: string;
  message: string;
  /** `'missing'`, `'invalid'` (then `wording` says why), or `'user-only'`. */
  reason: string;
  wording?: string;
  /** The arguments that answer it. */
  arguments: string[];
}

/** What an "arguments needed" result says is needed. */
export interface ArgumentsNeeded {
  tool: string;
  asks: NeededAsk[];
}

function isNeededAsk(value: unknown): value is NeededAsk {
  return (
    isRecord(value) &&
    typeof value['key'] === 'string' &&
    typeof value['message'] === 'string' &&
    typeof value['reason'] === 'string' &&
    (value['wording'] === undefined || typeof value['wording'] === 'string') &&
    Array.isArray(value['arguments']) &&
    value['arguments'].every((name) => typeof name === 'string')
  );
}

/** The questions `result` says to ask, or `undefined` when it says none. */
export function argumentsNeededOf(result: ToolCallResult): ArgumentsNeeded | undefined {
  const needed = result._meta?.[ARGUMENTS_NEEDED_META];
  if (!isRecord(needed) || typeof needed['tool'] !== 'string') return undefined;
  const asks = needed['asks'];
  if (!Array.isArray(asks) || asks.length === 0 || !asks.every(isNeededAsk)) return undefined;
  return { tool: needed['tool'], asks };
}

/**
 * The tool's input schema with each argument of `ask` described for the person. A Parley server
 * describes them for the model (`Ask the user: <question> — <title>: <description>`); the person
 * has the question before them already, so what is left is what a form field would say. Other
 * wording is kept whole.
 */
function forThePerson(inputSchema: unknown, ask: NeededAsk): unknown {
  const properties = isRecord(inputSchema) ? inputSchema['properties'] : undefined;
  if (!isRecord(inputSchema) || !isRecord(properties)) return inputSchema;
  const described = { ...properties };
  for (const name of ask.arguments) {
    const property = properties[name];
    if (!isRecord(property)) continue;
    const { description, title } = property;
    if (typeof description !== 'string' || typeof title !== 'string') continue;
    const label = description.lastIndexOf(` — ${title}`);
    if (!description.startsWith('Ask the user: ') || label === -1) continue;
    const rest = description.slice(label + ` — ${title}`.length);
    const { description: _forTheModel, ...field } = property;
    described[name] = rest.startsWith(': ') ? { ...field, description: rest.slice(2) } : field;
  }
  return { ...inputSchema, properties: described };
}

/**
 * Put the questions of `needed` to the person; resolves to the arguments to call again with, to
 * how the person left a question, or to `undefined` when they cannot be answered here: one needs
 * the person's own confirmation, which no argument may carry.
 */
export async function askInConversation(
  prompter: Prompter,
  needed: ArgumentsNeeded,
  inputSchema: unknown,
  round: number,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown> | Dismissed | undefined> {
  if (needed.asks.some((ask) => ask.reason === 'user-only')) return undefined;
  const values: Record<string, unknown> = {};
  for (const ask of needed.asks) {
    prompter.question(
      `${needed.tool} asks (round ${round})`,
      ask.wording ?? ask.message,
      DISMISS_KEYS,
      CONVERSATION_ROUTE,
    );
    const schema = forThePerson(inputSchema, ask);
    const given = await askArguments(prompter, schema, ask.arguments, signal);
    if (isDismissed(given)) {
      prompter.warn(given === DECLINED ? 'Declined.' : 'Cancelled.');
      return given;
    }
    Object.assign(values, given);
  }
  return values;
}
