import {
  InvalidAnswerError,
  supportsRequest,
  ToolResult,
  type ClientCapabilities,
  type InputRequest,
  type InputResponse,
} from '@parley/core';

import { askInfoOf, compiledOf } from '../../ask/builders.ts';
import { readAnswer } from '../../ask/answers.ts';
import { askKindOf, type AskKind } from '../../ask/asked.ts';
import { problemOf, reaskRequest } from '../../ask/reask.ts';
import type { AskFallback } from './policy.ts';

/**
 * The `'arguments'` fallback: a declared ask the client cannot answer becomes optional arguments
 * of the tool, for that client only. One table (the slots) drives all of it, so what a client is
 * listed, what a call of it accepts, and what the model is told to send are the same thing.
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

function sampledText(ask: InputRequest): string {
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

/** The declared asks `capabilities` cannot answer (optional ones count only for `countOptional`). */
export function unanswerableAsks(
  fallback: ToolFallback,
  capabilities: ClientCapabilities,
  countOptional = true,
): FallbackAsk[] {
  return fallback.asks.filter(
    (entry) =>
      !supportsRequest(capabilities, entry.ask) &&
      (countOptional || askInfoOf(entry.ask)?.optional !== true),
  );
}

/** The tool's input schema as `capabilities` sees it: with the arguments of the asks it cannot answer. */
export function listedInputSchema(
  base: Record<string, unknown>,
  fallback: ToolFallback,
  capabilities: ClientCapabilities,
): Record<string, unknown> {
  if (fallback.policy !== 'arguments') return base;
  const added = unanswerableAsks(fallback, capabilities).flatMap((entry) => entry.slots);
  if (added.length === 0) return base;
  const properties = { ...((base['properties'] as Record<string, unknown> | undefined) ?? {}) };
  for (const slot of added) properties[slot.argument] = slot.schema;
  return { ...base, type: 'object', properties };
}

/**
 * Split a call's arguments: the tool's own, for its schema and handler, and those standing in
 * for the answers `capabilities` cannot give (a client that can answer has no such arguments:
 * they were never listed to it, so they stay with the tool's own and its schema judges them).
 */
export function splitArguments(
  args: unknown,
  fallback: ToolFallback | undefined,
  capabilities: ClientCapabilities,
): { own: unknown; answers: Readonly<Record<string, unknown>> } {
  if (
    fallback?.policy !== 'arguments' ||
    typeof args !== 'object' ||
    args === null ||
    Array.isArray(args)
  ) {
    return { own: args, answers: {} };
  }
  const names = new Set(
    unanswerableAsks(fallback, capabilities).flatMap((entry) =>
      entry.slots.map((slot) => slot.argument),
    ),
  );
  if (names.size === 0) return { own: args, answers: {} };
  const own: Record<string, unknown> = {};
  const answers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    (names.has(name) ? answers : own)[name] = value;
  }
  return { own, answers };
}

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

/** One ask the call could not take from its arguments, as the model is told about it. */
export interface NeededAsk {
  entry: FallbackAsk;
  /** The ask as the handler asked it (its message may name earlier answers); else the declared one. */
  ask: InputRequest;
  why: 'missing' | 'user-only' | 'invalid';
  /** For an invalid value: the re-ask wording. */
  wording?: string;
}

function messageOf(ask: InputRequest): string {
  if (ask.method === 'elicitation/create') return ask.params.message;
  if (ask.method === 'sampling/createMessage') return sampledText(ask);
  return 'the roots the user works in';
}

function typeOf(schema: Record<string, unknown>): string {
  const type = schema['type'];
  if (Array.isArray(schema['enum']))
    return `one of ${schema['enum'].map((v) => JSON.stringify(v)).join(', ')}`;
  if (type === 'array') {
    const items = schema['items'] as Record<string, unknown> | undefined;
    const options = (items?.['enum'] ??
      (items?.['anyOf'] as { const?: unknown }[] | undefined)?.map((o) => o.const)) as
      unknown[] | undefined;
    return options === undefined
      ? 'a list'
      : `a list of ${options.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (Array.isArray(schema['oneOf'])) {
    return `one of ${(schema['oneOf'] as { const?: unknown }[]).map((o) => JSON.stringify(o.const)).join(', ')}`;
  }
  const format = typeof schema['format'] === 'string' ? `, format ${schema['format']}` : '';
  return `${String(type)}${format}`;
}

function slotLine(slot: ArgumentSlot): string {
  return `  - ${slot.argument} (${typeOf(slot.schema)}): ${String(slot.schema['description'] ?? '')}`;
}

/**
 * The result a call ends with when its asks' arguments are missing or wrong: for the model, which
 * questions to put to the user and which arguments to call again with. It is an error result
 * (the call did not do its work), like an invalid argument's, so hosts show it as one; and it
 * carries the same facts, structured, in `_meta` for a host that acts on them.
 */
export function argumentsNeededResult(tool: string, needed: readonly NeededAsk[]): ToolResult {
  const askable = needed.filter((item) => item.why !== 'user-only');
  const userOnly = needed.filter((item) => item.why === 'user-only');
  const lines: string[] = [];
  if (askable.length > 0) {
    lines.push(
      `${tool} needs answers this client cannot ask the user for. Put these questions to the user ` +
        `(do not answer them yourself), then call ${tool} again with the same arguments and these added:`,
    );
    for (const item of askable) {
      lines.push(
        `- ${item.entry.key}: ${item.why === 'invalid' ? item.wording : messageOf(item.ask)}`,
      );
      for (const slot of item.entry.slots) lines.push(slotLine(slot));
    }
  }
  if (userOnly.length > 0) {
    lines.push(
      `${tool} also needs the user's own confirmation, which cannot be given as an argument: ` +
        userOnly
          .map(
            (item) =>
              `${item.entry.key} (${messageOf(item.ask)}: ${item.entry.userOnly.join(', ')})`,
          )
          .join('; ') +
        '. Tell the user it needs a client that can ask them (MCP elicitation).',
    );
  }
  return new ToolResult({
    content: [{ type: 'text', text: lines.join('\n') }],
    isError: true,
    _meta: {
      'parley/argumentsNeeded': {
        tool,
        asks: needed.map((item) => ({
          key: item.entry.key,
          message: messageOf(item.ask),
          reason: item.why,
          ...(item.wording !== undefined ? { wording: item.wording } : {}),
          arguments: item.entry.slots.map((slot) => slot.argument),
          ...(item.why === 'user-only' ? { userOnly: item.entry.userOnly } : {}),
        })),
      },
    },
  });
}
