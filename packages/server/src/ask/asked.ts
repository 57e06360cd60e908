import {
  InvalidInputResponsesError,
  canonicalJson,
  isRecord,
  type CanonicalJsonOptions,
  type ElicitationSchema,
  type InputRequest,
  type InputRequests,
  type InputResponse,
  type InputResponses,
} from '@parley/core';

import { askInfoOf } from './builders.ts';
import { digestOf, digestText } from './digest.ts';

/**
 * What a round asked, sealed into the state it hands the client, so the next round accepts only
 * answers to those questions.
 *
 * The threat: a client (buggy, over-eager, or driven by a model) sends answers beside the ones
 * the user gave, say an `ok: true` for a confirmation that was never shown. Without a record, the
 * handler's `ctx.answer('ok', …)` would take it. With one, an answer under a key this flow did
 * not just ask is dropped before the handler runs, and an answer of the wrong kind (a sampling
 * result under an elicitation key) is refused with `-32602` naming the key.
 */

/** The kinds of question, by what their answer looks like. */
export type AskKind = 'form' | 'url' | 'sampling' | 'roots';

/** A form question, kept so an answer can be checked and, when it does not fit, asked again. */
export interface FormQuestion {
  message: string;
  requestedSchema: ElicitationSchema;
}

/** One asked key. */
export interface AskedEntry {
  kind: AskKind;
  /** The digest of the request as the handler built it (before any re-ask wording). */
  digest: string;
  /** Form elicitations only. */
  question?: FormQuestion;
}

/** Every key one round asked. */
export type AskedRecord = Readonly<Record<string, AskedEntry>>;

/** The kind of one input request. */
export function askKindOf(request: InputRequest): AskKind {
  switch (request.method) {
    case 'elicitation/create':
      return request.params.mode === 'url' ? 'url' : 'form';
    case 'sampling/createMessage':
      return 'sampling';
    case 'roots/list':
      return 'roots';
  }
}

/** Digests by request object: a handler asks the same request objects round after round. */
const digests = new WeakMap<object, string>();

/**
 * The canonical JSON of the requested schemas `elicitRequest` shares: a handler that builds its
 * ask anew each round (a message naming an earlier answer) asks with the same compiled schema.
 */
const schemaTexts = new WeakMap<object, string>();
const WITH_SCHEMA_TEXTS: CanonicalJsonOptions = { known: schemaTexts };

/** The canonical JSON of the schemas compiled response types read answers with. */
const compiledTexts = new WeakMap<object, string>();

/**
 * The canonical JSON of a compiled response type's schema, kept: compiled response types are
 * cached per response type and treated as immutable (see `compiled.ts`), and so are their schemas.
 */
export function compiledSchemaText(schema: object): string {
  let text = compiledTexts.get(schema);
  if (text === undefined) {
    text = canonicalJson(schema);
    compiledTexts.set(schema, text);
  }
  return text;
}

/**
 * The digest of an ask: what it asks, so a changed question is recognised as a new one. Asks
 * are treated as immutable values once built (as the builders make them), and so are the
 * compiled response types they share.
 */
export function askDigest(request: InputRequest): string {
  let digest = digests.get(request);
  if (digest === undefined) {
    const schema =
      request.method === 'elicitation/create' && request.params.mode !== 'url'
        ? request.params.requestedSchema
        : undefined;
    if (
      schema !== undefined &&
      !schemaTexts.has(schema) &&
      askInfoOf(request)?.compiled?.requestedSchema === schema
    ) {
      schemaTexts.set(schema, canonicalJson(schema));
    }
    digest =
      (schema === undefined
        ? undefined
        : formAskDigest(request.params as Record<string, unknown>, schema)) ??
      digestOf({ method: request.method, params: request.params ?? {} }, WITH_SCHEMA_TEXTS);
    digests.set(request, digest);
  }
  return digest;
}

/**
 * The digests of form asks as the builders make them, by their shared schema and then their
 * message: a handler that builds the same question anew each round (a message naming an
 * earlier answer) has it digested once, not on every round. Bounded per schema: a message that
 * differs every time (a name, a date) only ever costs the digest itself.
 */
const formDigests = new WeakMap<object, Map<string, string>>();
const FORM_DIGESTS_PER_SCHEMA = 512;

/** The digest of a form ask as the builders make it, or `undefined` for any other ask. */
function formAskDigest(params: Record<string, unknown>, schema: object): string | undefined {
  const schemaText = schemaTexts.get(schema);
  if (schemaText === undefined || !isBuiltFormAsk(params)) return undefined;
  const message = params.message as string;
  let known = formDigests.get(schema);
  const cached = known?.get(message);
  if (cached !== undefined) return cached;
  // The canonical JSON of the ask, written directly: the very text `canonicalJson` gives, so
  // digests stay what they were, without sorting keys for the ask itself.
  const digest = digestText(
    '{"method":"elicitation/create","params":{"message":' +
      `${JSON.stringify(message)},"mode":"form","requestedSchema":${schemaText}}}`,
  );
  if (known === undefined) formDigests.set(schema, (known = new Map()));
  if (known.size >= FORM_DIGESTS_PER_SCHEMA) known.clear();
  known.set(message, digest);
  return digest;
}

/** True for form params as the builders make them: exactly `mode`, `message`, `requestedSchema`. */
function isBuiltFormAsk(params: Record<string, unknown>): boolean {
  if (params.mode !== 'form' || typeof params.message !== 'string') return false;
  let keys = 0;
  for (const key in params) {
    if (!Object.hasOwn(params, key)) continue;
    if (key !== 'mode' && key !== 'message' && key !== 'requestedSchema') return false;
    keys++;
  }
  return keys === 3;
}

/**
 * The digest a form ask has when it was declared at registration as a bare response type (a
 * schema without a message): what an answer given up front, before any round asked, answered.
 */
export function declaredDigest(request: InputRequest): string | undefined {
  if (request.method !== 'elicitation/create' || request.params.mode === 'url') return undefined;
  return digestOf({
    method: request.method,
    params: { mode: 'form', message: '', requestedSchema: request.params.requestedSchema },
  });
}

/** The record of one ask. */
export function askedEntryOf(request: InputRequest): AskedEntry {
  const kind = askKindOf(request);
  const entry: AskedEntry = { kind, digest: askDigest(request) };
  if (request.method === 'elicitation/create' && request.params.mode !== 'url') {
    entry.question = {
      message: request.params.message,
      requestedSchema: request.params.requestedSchema,
    };
  }
  return entry;
}

/** The record of a round's asks. */
export function recordAsks(requests: InputRequests): AskedRecord {
  const record: Record<string, AskedEntry> = {};
  for (const key in requests) {
    if (Object.hasOwn(requests, key)) record[key] = askedEntryOf(requests[key] as InputRequest);
  }
  return record;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** What an answer looks like, by its members; `undefined` when it looks like no result at all. */
function answerKindOf(
  entry: Record<string, unknown>,
): 'elicitation' | 'sampling' | 'roots' | undefined {
  if ('action' in entry) return 'elicitation';
  if ('roots' in entry) return 'roots';
  if ('model' in entry || 'role' in entry) return 'sampling';
  return undefined;
}

const EXPECTED: Record<AskKind, 'elicitation' | 'sampling' | 'roots'> = {
  form: 'elicitation',
  url: 'elicitation',
  sampling: 'sampling',
  roots: 'roots',
};

const ARTICLE: Record<'elicitation' | 'sampling' | 'roots', string> = {
  elicitation: 'an elicitation result ({ action, content? })',
  sampling: 'a sampling result ({ role, content, model })',
  roots: 'a roots result ({ roots })',
};

const ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

/**
 * Why an elicitation answer is not one, in words for the person who gave it, or `undefined`.
 * (A wrong shape is a bad answer like a wrong value: it is asked again, not a protocol error.)
 * It says what kind of value came, never the value: it is also the error's reason.
 */
export function elicitationShapeProblem(entry: Record<string, unknown>): string | undefined {
  if (!ACTIONS.has(entry.action)) {
    return `the answer must accept, decline or cancel, not ${entry.action === undefined ? 'nothing' : describe(entry.action)}`;
  }
  if (entry.action === 'accept' && entry.content !== undefined && !isRecord(entry.content)) {
    return 'the answer did not come as a form (its content is not an object)';
  }
  return undefined;
}

/** Why a sampling or roots answer is malformed, or `undefined`. These are never asked again. */
function resultShapeProblem(
  kind: 'sampling' | 'roots',
  entry: Record<string, unknown>,
): string | undefined {
  if (kind === 'roots') {
    return Array.isArray(entry.roots) &&
      entry.roots.every((root) => isRecord(root) && typeof root.uri === 'string')
      ? undefined
      : 'roots must be an array of { uri }';
  }
  return typeof entry.model === 'string' &&
    (entry.role === 'user' || entry.role === 'assistant') &&
    entry.content !== undefined
    ? undefined
    : 'a sampling result needs role, content and model';
}

/** The answers a round may act on. */
export interface ScreenedAnswers {
  /** Answers to asked keys, in the shape of their kind (elicitations may still be bad answers). */
  kept: InputResponses;
  /** Keys that were not asked, and so were ignored. */
  dropped: string[];
}

/**
 * Keep only the answers to what `asked` records; check each kept one has the kind its question
 * needs. Sampling and roots answers must be well formed; an elicitation answer may still be a
 * bad answer (wrong action, wrong content), which the caller checks against its question.
 *
 * @throws {InvalidInputResponsesError} for an entry that is not an object, or an answer of the
 *   wrong kind for its key.
 */
export function screenAnswers(
  responses: Readonly<Record<string, unknown>>,
  asked: AskedRecord,
): ScreenedAnswers {
  const kept: Record<string, InputResponse> = {};
  const dropped: string[] = [];
  for (const key in responses) {
    if (!Object.hasOwn(responses, key)) continue;
    const entry = responses[key];
    const question = Object.hasOwn(asked, key) ? asked[key] : undefined;
    if (question === undefined) {
      dropped.push(key);
      continue;
    }
    if (!isRecord(entry)) {
      throw new InvalidInputResponsesError({
        key,
        reason: `expected ${ARTICLE[EXPECTED[question.kind]]}, got ${describe(entry)}`,
      });
    }
    const expected = EXPECTED[question.kind];
    const actual = answerKindOf(entry);
    if (actual !== expected) {
      throw new InvalidInputResponsesError({
        key,
        reason: `'${key}' asked for ${ARTICLE[expected]}, but the answer is ${actual === undefined ? 'no known result' : ARTICLE[actual]}`,
      });
    }
    if (expected !== 'elicitation') {
      const problem = resultShapeProblem(expected, entry);
      if (problem !== undefined) throw new InvalidInputResponsesError({ key, reason: problem });
    }
    kept[key] = entry as unknown as InputResponse;
  }
  return { kept, dropped };
}
