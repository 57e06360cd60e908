import { InvalidRequestStateError } from '@parley/core';
import {
  RequestStateError,
  type RequestBinding,
  type RequestStateSealer,
} from '@parley/state-sealing';

/**
 * What Parley puts inside every sealed `requestState`: the author's own state, plus the flow
 * identity (one id for all rounds of a logical call, and the round number) so middleware can tie
 * rounds together even when they land on different replicas.
 */
export interface RequestStateEnvelope {
  /** The author's plaintext state, when the handler returned one. */
  state: string | null;
  /** The id shared by every round of one logical call. */
  flowId: string;
  /** The round that minted this state (the next round is `round + 1`). */
  round: number;
  /** When the flow's first round started (ms since the epoch), for whole-flow timings. */
  startedAt: number;
}

interface WireEnvelope {
  v: 1;
  f: string;
  r: number;
  t: number;
  s?: string;
}

/** A fresh, unguessable flow id. */
export function newFlowId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

export async function sealEnvelope(
  sealer: RequestStateSealer,
  envelope: RequestStateEnvelope,
  binding: RequestBinding,
): Promise<string> {
  const wire: WireEnvelope = { v: 1, f: envelope.flowId, r: envelope.round, t: envelope.startedAt };
  if (envelope.state !== null) wire.s = envelope.state;
  return sealer.seal(JSON.stringify(wire), binding);
}

function isWireEnvelope(value: unknown): value is WireEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const wire = value as Record<string, unknown>;
  return (
    wire.v === 1 &&
    typeof wire.f === 'string' &&
    Number.isSafeInteger(wire.r) &&
    (wire.r as number) >= 1 &&
    Number.isSafeInteger(wire.t) &&
    (wire.s === undefined || typeof wire.s === 'string')
  );
}

/**
 * Open and check a `requestState` token. Every way the token itself fails is an
 * {@link InvalidRequestStateError} whose reason is for the server's log only.
 */
export async function openEnvelope(
  sealer: RequestStateSealer,
  token: string,
  binding: RequestBinding,
): Promise<RequestStateEnvelope> {
  let plaintext: string;
  try {
    plaintext = await sealer.open(token, binding);
  } catch (error) {
    // Anything else (a replay store that is down, say) is the server's failure, not the client's.
    if (!(error instanceof RequestStateError)) throw error;
    throw new InvalidRequestStateError({ reason: error.reason }, { cause: error });
  }
  let wire: unknown;
  try {
    wire = JSON.parse(plaintext);
  } catch (error) {
    throw new InvalidRequestStateError({ reason: 'malformed-envelope' }, { cause: error });
  }
  if (!isWireEnvelope(wire)) throw new InvalidRequestStateError({ reason: 'malformed-envelope' });
  return { state: wire.s ?? null, flowId: wire.f, round: wire.r, startedAt: wire.t };
}
