import type { InputRequest } from '@parley/core';

import { askInfoOf, compiledOf } from '../../ask/builders.ts';
import { askKindOf, type AskKind } from '../../ask/asked.ts';
import type { AskFallback } from './policy.ts';

/**
 * The slots of the `'arguments'` fallback, made and checked when a tool registers: a declared ask
 * the client cannot answer becomes optional arguments of the tool, for that client only. One
 * table (the slots) drives all of it (`listedArguments`, `argumentAnswers`, `argumentsNeeded`
 * read it), so what a client is listed, what a call of it accepts, and what the model is told to
 * send are the same thing.
 *
 * Confirmations (a boolean field, a bare yes/no, an approve-only ask) get no slot unless the ask
 * opts in (`modelMayConfirm`): a model could fill them in without the user ever seeing them.
 */

/** One argument standing in for (part of) an ask's answer. */
export interface ArgumentSlot {
  /** Its name among the tool's arguments. */
  argument: string;
  /** The form field it fills; `undefined` when it is the whole answer (a URL step, a sample). */
  field: string | undefined;
  /** Its JSON Schema, as listed. */
  schema: Record<string, unknown>;
}

/** A declared ask, as the fallback knows it. */
export interface FallbackAsk {
  key: string;
  /** The ask as declared (its message and fields describe the arguments). */
  ask: InputRequest;
  kind: AskKind;
  slots: readonly ArgumentSlot[];
  /** Labels of what only the user may give (confirmations the ask did not open to the model). */
  userOnly: readonly string[];
  /** Form asks: the wrapped scalar's single `value` field is argument `key`. */
  wrapped: boolean;
}

/** A tool's fallback: its policy and its declared asks, in declaration order. */
export interface ToolFallback {
  policy: AskFallback;
  asks: readonly FallbackAsk[];
}

const WRAPPER_FIELD = 'value';

function labelOf(field: string, property: Record<string, unknown>): string {
  const title = typeof property['title'] === 'string' ? property['title'] : field;
  const description = property['description'];
  return typeof description === 'string' && description !== title
    ? `${title}: ${description}`
    : title;
}

/** The text a sampling ask would have the client sample (its messages' text, one a line). */
export function sampledText(ask: InputRequest): string {
  if (ask.method !== 'sampling/createMessage') return '';
  return ask.params.messages
    .map((message) => (message.content as { type?: string; text?: string }).text ?? '')
    .filter((text) => text.length > 0)
    .join('\n');
}

/** A declared ask and its slots (nothing only the user may give, not wrapped, unless told). */
function fallbackAsk(
  key: string,
  ask: InputRequest,
  { slots, userOnly = [], wrapped = false }: Pick<FallbackAsk, 'slots'> & Partial<FallbackAsk>,
): FallbackAsk {
  return { key, ask, kind: askKindOf(ask), wrapped, userOnly, slots };
}

/** An ask answered whole by one argument of this schema (a sample, the roots, a URL step). */
function wholeAnswer(key: string, ask: InputRequest, schema: Record<string, unknown>): FallbackAsk {
  return fallbackAsk(key, ask, { slots: [{ argument: key, field: undefined, schema }] });
}

/** The slots of one declared ask, and what of it only the user may give. */
function describeAsk(key: string, ask: InputRequest): FallbackAsk {
  switch (ask.method) {
    case 'sampling/createMessage':
      return wholeAnswer(key, ask, {
        type: 'string',
        description: `Write this yourself (this client cannot be asked to sample it): ${sampledText(ask)}`,
      });
    case 'roots/list':
      return wholeAnswer(key, ask, {
        type: 'array',
        items: { type: 'string', format: 'uri' },
        description: 'The URIs of the roots (directories or files) the user works in.',
      });
    case 'elicitation/create':
      break;
  }
  const { params } = ask;
  if (params.mode === 'url') {
    // Accepting a URL step only ever meant "the user went there": the server checks the outcome
    // out of band either way, so the model may report it.
    return wholeAnswer(key, ask, {
      type: 'boolean',
      description: `Ask the user to open ${params.url} (${params.message}); true once they have finished there.`,
    });
  }
  const mayConfirm = askInfoOf(ask)?.modelMayConfirm === true;
  const schema = params.requestedSchema;
  const wrapped = compiledOf(ask).wrapped;
  const ask_ = `Ask the user: ${params.message}`;
  const entries = Object.entries(schema.properties) as unknown as [
    string,
    Record<string, unknown>,
  ][];
  if (entries.length === 0) {
    return mayConfirm
      ? wholeAnswer(key, ask, { type: 'boolean', description: `${ask_} (true to approve)` })
      : fallbackAsk(key, ask, { slots: [], userOnly: [params.message || key] });
  }
  const slots: ArgumentSlot[] = [];
  const userOnly: string[] = [];
  for (const [field, property] of entries) {
    if (property['type'] === 'boolean' && !mayConfirm) {
      userOnly.push(labelOf(field, property));
      continue;
    }
    // Parley's own `value` wrapper is no label; the response title it was given is.
    const label =
      wrapped && field === WRAPPER_FIELD && typeof property['title'] !== 'string'
        ? undefined
        : labelOf(field, property);
    slots.push({
      argument: wrapped ? key : field,
      field,
      schema: {
        ...property,
        description: label === undefined ? ask_ : `${ask_} — ${label}`,
      },
    });
  }
  return fallbackAsk(key, ask, { slots, userOnly, wrapped });
}

/**
 * The fallback of a tool, checked at registration: the argument names its asks would add must
 * not clash with each other or with the tool's own parameters.
 *
 * @throws {TypeError} naming the clash.
 */
export function toolFallbackOf(
  api: string,
  policy: AskFallback,
  declared: Readonly<Record<string, InputRequest>>,
  inputJsonSchema: Record<string, unknown> | undefined,
): ToolFallback {
  const own = Object.keys((inputJsonSchema?.['properties'] as object | undefined) ?? {});
  const taken = new Map<string, string>(own.map((name) => [name, 'a parameter of the tool']));
  const asks = Object.entries(declared).map(([key, ask]) => describeAsk(key, ask));
  if (policy === 'arguments') {
    for (const ask of asks) {
      for (const slot of ask.slots) {
        const holder = taken.get(slot.argument);
        if (holder !== undefined) {
          throw new TypeError(
            `${api}: ask '${ask.key}' would add argument '${slot.argument}' for clients that cannot answer it, ` +
              `but '${slot.argument}' is already ${holder}; rename the field.`,
          );
        }
        taken.set(slot.argument, `the argument of ask '${ask.key}'`);
      }
    }
  }
  return { policy, asks };
}
