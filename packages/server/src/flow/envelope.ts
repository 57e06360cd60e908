import {
  InvalidRequestStateError,
  isRecord,
  type InputResponse,
  type InputResponses,
} from '@parley/core';
import {
  RequestStateError,
  type BoundRequest,
  type OpenedToken,
  type RequestBinding,
  type RequestStateSealer,
} from '@parley/state-sealing';
import { openAtOnce, openTokenAtOnce, sealAtOnce } from '@parley/state-sealing/internal';

import { fillRandom } from '../utils/randomness.ts';
import type { AskedEntry, AskedRecord, AskKind } from '../ask/asked.ts';
import { isEmpty } from '../utils/records.ts';

/**
 * What Parley puts inside every sealed `requestState`: the flow's identity, the author's own
 * `requestState` string, and what the round that minted it asked (so the next round accepts only answers to
 * that). A round that asked a question again after a bad answer also carries the good answers
 * of that round and how often each key was asked again. A flow written with `ctx.ask` also
 * carries every answer it was given so far (each tied to its key and the digest of the question
 * it answered) and the values `ctx.remember` computed, so a re-run replays them.
 *
 * On the wire (JSON, before sealing; short names, since it travels on every round):
 *
 * ```
 * { v: 2, f: flowId, r: round, t: startedAt,
 *   p?: traceparent, w?: askedAt,                                                 telemetry
 *   s?: the author's requestState,
 *   a?: { key: { k: kind code, d: digest, m?: message, q?: requestedSchema } },   asked
 *   c?: { key: answer },                                                          carried
 *   n?: { key: re-ask count },
 *   y?: { key: [digest, answer] },                                                ctx.ask answers
 *   z?: { key: value } }                                                          ctx.remember
 * ```
 */

/** One answer `ctx.ask` was given, kept for the re-runs of its flow. */
export interface RecordedAnswer {
  /** The digest of the question it answered: a changed question is asked again. */
  digest: string;
  /** The answer as the client sent it (read again, typed, on every replay). */
  answer: InputResponse;
}

/** One sealed envelope: everything a flow carries from one round to the next. */
export interface FlowEnvelope {
  /** The id shared by every round of one logical call. */
  flowId: string;
  /** The round that minted this state (the next round is `round + 1`). */
  round: number;
  /** When the flow's first round started (ms since the epoch). */
  startedAt: number;
  /** The author's own state (`inputRequired({ requestState })`), read back as `ctx.requestState`. */
  requestState: string | null;
  /** What the minting round asked; an empty record for a state-only round. */
  asked: AskedRecord;
  /** Good answers of a round whose other answers were asked again, handed to the next round. */
  carried: InputResponses;
  /** How many times each key has been asked again after a bad answer. */
  reasks: Readonly<Record<string, number>>;
  /** The answers `ctx.ask` was given in this flow so far, by key. */
  answers: Readonly<Record<string, RecordedAnswer>>;
  /** The values `ctx.remember` computed in this flow so far, by key (JSON). */
  remembered: Readonly<Record<string, unknown>>;
  /** Telemetry, when it records: the `traceparent` of the round that minted this state. */
  trace?: string | undefined;
  /** Telemetry, when it records metrics: when this state was minted (ms since the epoch). */
  askedAt?: number | undefined;
}

const KIND_CODES: Record<AskKind, string> = { form: 'e', url: 'u', sampling: 's', roots: 'r' };
const KINDS_BY_CODE: Record<string, AskKind> = { e: 'form', u: 'url', s: 'sampling', r: 'roots' };

interface WireAsk {
  k: string;
  d: string;
  m?: string;
  q?: unknown;
}

interface WireEnvelope {
  v: 2;
  f: string;
  r: number;
  t: number;
  p?: string;
  w?: number;
  s?: string;
  a?: Record<string, WireAsk>;
  c?: Record<string, unknown>;
  n?: Record<string, number>;
  y?: Record<string, [string, unknown]>;
  z?: Record<string, unknown>;
}

const FLOW_ID_BYTES = 12;
/**
 * Random bytes for flow ids, drawn from the system a few hundred ids at a time: a
 * call into the system generator per round costs more than the id itself.
 */
const flowIdPool = new Uint8Array(FLOW_ID_BYTES * 256);
let flowIdOffset = flowIdPool.length;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** A fresh, unguessable flow id (24 hex digits). */
export function newFlowId(): string {
  if (flowIdOffset === flowIdPool.length) {
    fillRandom(flowIdPool);
    flowIdOffset = 0;
  }
  let hex = '';
  for (let index = 0; index < FLOW_ID_BYTES; index++) hex += HEX[flowIdPool[flowIdOffset + index]!];
  flowIdOffset += FLOW_ID_BYTES;
  return hex;
}

function toWire(envelope: FlowEnvelope): WireEnvelope {
  const wire: WireEnvelope = { v: 2, f: envelope.flowId, r: envelope.round, t: envelope.startedAt };
  if (envelope.trace !== undefined) wire.p = envelope.trace;
  if (envelope.askedAt !== undefined) wire.w = envelope.askedAt;
  if (envelope.requestState !== null) wire.s = envelope.requestState;
  if (!isEmpty(envelope.asked)) {
    wire.a = {};
    for (const key in envelope.asked) {
      if (!Object.hasOwn(envelope.asked, key)) continue;
      const entry = envelope.asked[key] as AskedEntry;
      const ask: WireAsk = { k: KIND_CODES[entry.kind], d: entry.digest };
      if (entry.question !== undefined) {
        ask.m = entry.question.message;
        ask.q = entry.question.requestedSchema;
      }
      wire.a[key] = ask;
    }
  }
  if (!isEmpty(envelope.carried)) wire.c = envelope.carried;
  if (!isEmpty(envelope.reasks)) wire.n = envelope.reasks;
  if (!isEmpty(envelope.answers)) {
    wire.y = {};
    for (const key in envelope.answers) {
      if (!Object.hasOwn(envelope.answers, key)) continue;
      const recorded = envelope.answers[key] as RecordedAnswer;
      wire.y[key] = [recorded.digest, recorded.answer];
    }
  }
  if (!isEmpty(envelope.remembered)) wire.z = envelope.remembered;
  return wire;
}

function askedOf(wire: unknown): AskedRecord | undefined {
  if (wire === undefined) return {};
  if (!isRecord(wire)) return undefined;
  const asked: Record<string, AskedEntry> = {};
  for (const key in wire) {
    if (!Object.hasOwn(wire, key)) continue;
    const value = wire[key];
    if (!isRecord(value) || typeof value.d !== 'string') return undefined;
    const kind = typeof value.k === 'string' ? KINDS_BY_CODE[value.k] : undefined;
    if (kind === undefined) return undefined;
    const entry: AskedEntry = { kind, digest: value.d };
    if (kind === 'form') {
      if (typeof value.m !== 'string' || !isRecord(value.q)) return undefined;
      entry.question = { message: value.m, requestedSchema: value.q as never };
    }
    asked[key] = entry;
  }
  return asked;
}

function answersOf(wire: unknown): Record<string, RecordedAnswer> | undefined {
  if (wire === undefined) return {};
  if (!isRecord(wire)) return undefined;
  const answers: Record<string, RecordedAnswer> = {};
  for (const [key, entry] of Object.entries(wire)) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !isRecord(entry[1])) {
      return undefined;
    }
    answers[key] = { digest: entry[0], answer: entry[1] as unknown as InputResponse };
  }
  return answers;
}

function fromWire(value: unknown): FlowEnvelope | undefined {
  // `j` (a JSON state) was sealed by a Parley that still had `inputRequired({ state })`.
  if (!isRecord(value) || value.v !== 2 || 'j' in value) return undefined;
  const { f, r, t, p, w, s, a, c, n, y, z } = value;
  if (typeof f !== 'string' || !Number.isSafeInteger(r) || (r as number) < 1) return undefined;
  if (!Number.isSafeInteger(t) || (s !== undefined && typeof s !== 'string')) return undefined;
  if ((p !== undefined && typeof p !== 'string') || (w !== undefined && !Number.isSafeInteger(w))) {
    return undefined;
  }
  const asked = askedOf(a);
  if (asked === undefined) return undefined;
  if (c !== undefined && !isRecord(c)) return undefined;
  if (n !== undefined && (!isRecord(n) || !Object.values(n).every(Number.isSafeInteger))) {
    return undefined;
  }
  const answers = answersOf(y);
  if (answers === undefined || (z !== undefined && !isRecord(z))) return undefined;
  return {
    flowId: f,
    round: r as number,
    startedAt: t as number,
    requestState: (s as string | undefined) ?? null,
    asked,
    carried: (c ?? {}) as InputResponses,
    reasks: (n ?? {}) as Record<string, number>,
    answers,
    remembered: (z ?? {}) as Record<string, unknown>,
    ...(p !== undefined ? { trace: p as string } : {}),
    ...(w !== undefined ? { askedAt: w as number } : {}),
  };
}

/** The bytes (UTF-8, before sealing) the flow's replay record takes in an envelope. */
export function recordBytes(envelope: FlowEnvelope): { answers: number; remembered: number } {
  const wire = toWire(envelope);
  const size = (value: unknown) =>
    value === undefined ? 0 : new TextEncoder().encode(JSON.stringify(value)).length;
  return { answers: size(wire.y), remembered: size(wire.z) };
}

/**
 * Seal an envelope: the token at once where the sealer answers at once (node:crypto), else a
 * promise of it. Throws (or rejects with) a `RequestStateError` (`too-large`) past the size
 * budget.
 */
export function sealEnvelope(
  sealer: RequestStateSealer,
  envelope: FlowEnvelope,
  binding: RequestBinding | BoundRequest,
): string | Promise<string> {
  return sealAtOnce(sealer, JSON.stringify(toWire(envelope)), binding);
}

/** An opened envelope, with what single use needs to know about its token. */
export interface OpenedEnvelope {
  envelope: FlowEnvelope;
  /** The token's id and the last moment it opens: only when opened for single use. */
  token: { id: string; expiresAt: number } | undefined;
}

/**
 * Open and check a `requestState` token: at once where the sealer answers at once, else a
 * promise. Every way the token itself fails is an {@link InvalidRequestStateError} whose reason
 * is for the server's log only.
 */
export function openEnvelope(
  sealer: RequestStateSealer,
  token: string,
  binding: RequestBinding | BoundRequest,
  singleUse: boolean,
): OpenedEnvelope | Promise<OpenedEnvelope> {
  let opened: string | OpenedToken | Promise<string | OpenedToken>;
  try {
    // Without single use nothing needs the token's id: the plain open skips encoding it.
    opened = singleUse
      ? openTokenAtOnce(sealer, token, binding)
      : openAtOnce(sealer, token, binding);
  } catch (error) {
    throw tokenFailure(error);
  }
  return opened instanceof Promise
    ? opened.then(envelopeOf, (error: unknown) => {
        throw tokenFailure(error);
      })
    : envelopeOf(opened);
}

/**
 * A token that did not open, as the client's error; anything else (a replay store that is
 * down, say) is the server's failure, not the client's, and passes as it is.
 */
function tokenFailure(error: unknown): unknown {
  return error instanceof RequestStateError
    ? new InvalidRequestStateError({ reason: error.reason }, { cause: error })
    : error;
}

/** The envelope inside an opened token. */
function envelopeOf(opened: string | OpenedToken): OpenedEnvelope {
  const plaintext = typeof opened === 'string' ? opened : opened.plaintext;
  let wire: unknown;
  try {
    wire = JSON.parse(plaintext);
  } catch (error) {
    throw new InvalidRequestStateError({ reason: 'malformed-envelope' }, { cause: error });
  }
  const envelope = fromWire(wire);
  if (envelope === undefined) throw new InvalidRequestStateError({ reason: 'malformed-envelope' });
  return {
    envelope,
    token:
      typeof opened === 'string' ? undefined : { id: opened.tokenId, expiresAt: opened.expiresAt },
  };
}
