import type {
  ClientOptions,
  ElicitationAnswer,
  ElicitationHandler,
  InputContext,
  RootsProvider,
  SamplingHandler,
} from '@parley/client';
import {
  checkOptionKeys,
  optionKeys,
  type CreateMessageParams,
  type CreateMessageResult,
  type ElicitFormParams,
  type ElicitResult,
  type ElicitUrlParams,
  type Root,
} from '@parley/core';

import { describeAsk, expectAsked, type Asked, type ExpectedAsk } from './asked.ts';

/**
 * A scripted user: the person (and the model, and the file system) a test puts behind a
 * client. Rules say how each question is answered; the first rule that matches wins, and a
 * question no rule answers fails the call with a message naming it, so a server that starts
 * asking something new fails the test. Everything asked is recorded for assertions.
 */

/**
 * Which questions a rule answers: a string is the `inputRequests` key (the modern era only; the
 * handshake era has no keys), a pattern is tested against the message (an elicitation's, or a
 * sampling request's last user text), a function decides from the whole {@link Asked}.
 */
export type AskMatch = string | RegExp | ((asked: Asked) => boolean);

/**
 * How an elicitation is answered: the form's field values (checked against the schema, its
 * defaults filled in), a bare value for a one-field form, or a function of the question that
 * returns any answer an `elicitationHandler` may.
 */
export type ElicitationReply =
  | Record<string, unknown>
  | string
  | number
  | boolean
  | string[]
  | ((asked: Asked) => ElicitationAnswer | Promise<ElicitationAnswer>);

/** How a sampling request is answered: the text, a full result, or a function of the question. */
export type SamplingReply =
  | string
  | CreateMessageResult
  | ((asked: Asked) => string | CreateMessageResult | Promise<string | CreateMessageResult>);

/** How many times a rule may answer before the next one matching takes over. Default: always. */
export interface RuleOptions {
  times?: number;
}

interface Rule {
  kind: 'elicitation' | 'sampling';
  match: AskMatch | undefined;
  reply: (asked: Asked) => unknown;
  left: number;
  label: string;
}

function matchesAsk(match: AskMatch | undefined, asked: Asked): boolean {
  if (match === undefined) return true;
  if (typeof match === 'string') return asked.key === match;
  if (match instanceof RegExp) return asked.message !== undefined && match.test(asked.message);
  return match(asked);
}

function checkMatch(api: string, match: unknown): AskMatch | undefined {
  if (
    match === undefined ||
    typeof match === 'string' ||
    match instanceof RegExp ||
    typeof match === 'function'
  ) {
    return match as AskMatch | undefined;
  }
  throw new TypeError(
    `${api}: match must be an inputRequests key, a RegExp for the message, or a function.`,
  );
}

const RULE_OPTIONS = optionKeys<RuleOptions>()(['times']);

function checkTimes(api: string, options: RuleOptions | undefined): number {
  checkOptionKeys(api, 'options', options, RULE_OPTIONS);
  const times = options?.times;
  if (times === undefined) return Number.POSITIVE_INFINITY;
  if (!Number.isInteger(times) || times < 1) {
    throw new RangeError(`${api}: times must be a whole number of at least 1, got ${times}.`);
  }
  return times;
}

/** The text of the last user message of a sampling request. */
function lastUserText(params: CreateMessageParams): string | undefined {
  const last = [...params.messages].reverse().find((message) => message.role === 'user');
  const content = last?.content;
  const blocks = Array.isArray(content) ? content : content === undefined ? [] : [content];
  const texts = blocks.flatMap((block) =>
    (block as { type?: string }).type === 'text' ? [(block as { text: string }).text] : [],
  );
  return texts.length === 0 ? undefined : texts.join('\n');
}

function baseAsk(ctx: InputContext): Pick<Asked, 'era' | 'key' | 'call' | 'round'> {
  return {
    era: ctx.era,
    key: ctx.era === 'modern' ? ctx.key : undefined,
    call: ctx.call,
    round: ctx.round,
  };
}

export class ScriptedUser {
  readonly #rules: Rule[] = [];
  readonly #asked: Asked[] = [];
  #roots: RootsProvider | undefined;

  /** Answer matching elicitations with `reply`. */
  answer(match: AskMatch, reply: ElicitationReply, options?: RuleOptions): this {
    const checked = checkMatch('answer', match);
    if (reply === undefined || reply === null) {
      throw new TypeError(
        'answer: give the field values, a value, or a function; decline() and cancel() say no.',
      );
    }
    return this.#add('elicitation', checked, options, 'answer', async (asked, responseType) => {
      const value = typeof reply === 'function' ? await reply(asked) : reply;
      // An explicit result stays as it is; field values and bare values go through the form's
      // builder, so the record says what was really sent (defaults included).
      const explicit =
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        ['accept', 'decline', 'cancel'].includes(String((value as { action?: unknown }).action));
      return explicit ? value : responseType?.(value as never);
    });
  }

  /** Accept matching elicitations with no data: URL mode, or an approve-only form. */
  accept(match: AskMatch, options?: RuleOptions): this {
    return this.#add('elicitation', checkMatch('accept', match), options, 'accept', () => ({
      action: 'accept',
    }));
  }

  /** Decline matching elicitations (the user said no). */
  decline(match: AskMatch, options?: RuleOptions): this {
    return this.#add('elicitation', checkMatch('decline', match), options, 'decline', () => ({
      action: 'decline',
    }));
  }

  /** Cancel matching elicitations (the user dismissed the question). */
  cancel(match: AskMatch, options?: RuleOptions): this {
    return this.#add('elicitation', checkMatch('cancel', match), options, 'cancel', () => ({
      action: 'cancel',
    }));
  }

  /** Answer sampling requests: every one, or those `match` picks. */
  sample(reply: SamplingReply, options?: RuleOptions): this;
  sample(match: AskMatch, reply: SamplingReply, options?: RuleOptions): this;
  sample(
    first: AskMatch | SamplingReply,
    second?: SamplingReply | RuleOptions,
    third?: RuleOptions,
  ): this {
    const hasMatch =
      second !== undefined &&
      (typeof second === 'string' ||
        typeof second === 'function' ||
        (typeof second === 'object' && 'content' in second));
    const match = hasMatch ? checkMatch('sample', first) : undefined;
    const reply = (hasMatch ? second : first) as SamplingReply;
    const options = (hasMatch ? third : second) as RuleOptions | undefined;
    if (
      typeof reply !== 'string' &&
      typeof reply !== 'function' &&
      (typeof reply !== 'object' || reply === null)
    ) {
      throw new TypeError('sample: give the text, a sampling result, or a function.');
    }
    return this.#add('sampling', match, options, 'sample', (asked) =>
      typeof reply === 'function' ? reply(asked) : reply,
    );
  }

  /** The roots the user's client offers. */
  roots(roots: readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>)): this {
    if (!Array.isArray(roots) && typeof roots !== 'function') {
      throw new TypeError('roots: give a list of { uri, name? } or a function returning one.');
    }
    this.#roots = roots as RootsProvider;
    return this;
  }

  /** Everything asked so far, in order. */
  get asked(): readonly Asked[] {
    return this.#asked;
  }

  /** The messages asked so far (elicitations and sampling), in order. */
  messages(): string[] {
    return this.#asked.flatMap((asked) => (asked.message === undefined ? [] : [asked.message]));
  }

  /**
   * Assert that exactly `expected` was asked, in order (see {@link ExpectedAsk}).
   *
   * @throws {AskedMismatchError} naming the first difference.
   */
  expectAsked(expected: readonly ExpectedAsk[]): void {
    expectAsked(this.#asked, expected);
  }

  /** Forget what was asked (the rules stay, with what they have left). */
  clear(): void {
    this.#asked.length = 0;
  }

  /**
   * The client options this user answers through: a handler for each kind it has rules for, so
   * a client only declares what the script can answer.
   */
  clientOptions(): Pick<ClientOptions, 'elicitationHandler' | 'samplingHandler' | 'roots'> {
    const has = (kind: Rule['kind']): boolean => this.#rules.some((rule) => rule.kind === kind);
    return {
      ...(has('elicitation') ? { elicitationHandler: this.#elicitationHandler } : {}),
      ...(has('sampling') ? { samplingHandler: this.#samplingHandler } : {}),
      ...(this.#roots !== undefined ? { roots: this.#rootsProvider } : {}),
    };
  }

  #add(
    kind: Rule['kind'],
    match: AskMatch | undefined,
    options: RuleOptions | undefined,
    label: string,
    reply: (asked: Asked, responseType?: Parameters<ElicitationHandler>[1]) => unknown,
  ): this {
    const left = checkTimes(label, options);
    this.#rules.push({ kind, match, reply: reply as Rule['reply'], left, label });
    return this;
  }

  /** The first rule of `kind` with answers left that matches; it is used up by one. */
  #take(kind: Rule['kind'], asked: Asked): Rule {
    const rule = this.#rules.find(
      (candidate) =>
        candidate.kind === kind && candidate.left > 0 && matchesAsk(candidate.match, asked),
    );
    if (rule === undefined) {
      throw new Error(
        `scriptedUser: nothing in the script answers ${describeAsk(asked, this.#asked.length - 1)}.`,
      );
    }
    rule.left -= 1;
    return rule;
  }

  readonly #elicitationHandler: ElicitationHandler = async (message, responseType, params, ctx) => {
    const form = params.mode === 'url' ? undefined : (params as ElicitFormParams);
    const asked: Asked = {
      kind: 'elicitation',
      ...baseAsk(ctx),
      message,
      mode: params.mode === 'url' ? 'url' : 'form',
      schema: form?.requestedSchema,
      url: params.mode === 'url' ? (params as ElicitUrlParams).url : undefined,
      request: { method: 'elicitation/create', params },
      answer: undefined,
    };
    this.#asked.push(asked);
    const rule = this.#take('elicitation', asked);
    const answer = (await (rule.reply as (a: Asked, r: typeof responseType) => unknown)(
      asked,
      responseType,
    )) as ElicitationAnswer;
    asked.answer = answer as ElicitResult;
    return answer;
  };

  readonly #samplingHandler: SamplingHandler = async (_messages, params, ctx) => {
    const asked: Asked = {
      kind: 'sampling',
      ...baseAsk(ctx),
      message: lastUserText(params),
      mode: undefined,
      schema: undefined,
      url: undefined,
      request: { method: 'sampling/createMessage', params },
      answer: undefined,
    };
    this.#asked.push(asked);
    const reply = (await this.#take('sampling', asked).reply(asked)) as
      string | CreateMessageResult;
    asked.answer =
      typeof reply === 'string'
        ? { role: 'assistant', content: { type: 'text', text: reply }, model: 'scripted' }
        : reply;
    return reply;
  };

  readonly #rootsProvider = async (ctx: InputContext): Promise<readonly Root[]> => {
    const asked: Asked = {
      kind: 'roots',
      ...baseAsk(ctx),
      message: undefined,
      mode: undefined,
      schema: undefined,
      url: undefined,
      request: { method: 'roots/list', params: {} },
      answer: undefined,
    };
    this.#asked.push(asked);
    const source = this.#roots;
    const roots = typeof source === 'function' ? await source(ctx) : (source ?? []);
    asked.answer = [...roots];
    return roots;
  };
}

/** A new scripted user with no rules yet. */
export function scriptedUser(): ScriptedUser {
  return new ScriptedUser();
}
