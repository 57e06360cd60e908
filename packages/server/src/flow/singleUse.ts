import { InvalidRequestStateError, checkOptionKeys, optionKeys } from '@parley/core';

import type { RequestTrace } from '../telemetry/requestTrace.ts';
import type { FlowEnvelope, OpenedEnvelope } from './envelope.ts';
import type { KeptOutcomes } from './keptOutcomes.ts';

/**
 * Single use of `requestState`, in a way that survives real networks.
 *
 * The semantics (documented in the security guide):
 *
 * - A token is **spent by the round that runs its handler**, whatever it answers (the next ask,
 *   a result, or the error the handler failed with): its effects happen at most once. A round
 *   that fails before the handler runs (a store outage, bad state) or with an answer that does
 *   not fit does not spend it, so the client can retry, or correct its answer, with it.
 * - When the store cannot take the outcome after the handler ran, the claim is not released:
 *   the outcome is kept in this process and written again until the store takes it
 *   (`keptOutcomes.ts`).
 * - A **retry of a spent token within the replay window** (default 60 s) gets the very same
 *   outcome again, without running anything: the answer to a client whose response was lost.
 * - After the window, a spent token is refused like any invalid state, until it expires. A
 *   replay of a finished flow therefore never runs the handler a second time.
 * - Two uses of one token at the same moment: the second waits for the first round's outcome
 *   (up to the lease, after which a round is presumed dead and the token may run again, on any
 *   replica: that is how a round that died with its process is retried elsewhere).
 *
 * The store must be shared by every replica for this to hold across them.
 */

/** What {@link SingleUseStore.begin} finds. */
export type SingleUseBegin =
  /** First use (or a retry after a failed or dead round): run the round. */
  | { status: 'started' }
  /** Another use of this token is running now. */
  | { status: 'running' }
  /** The token's round completed within the replay window: send this outcome again. */
  | { status: 'finished'; outcome: string }
  /** The token's round completed, and the replay window is over: refuse it. */
  | { status: 'spent' };

/** Where the use of every token is recorded. One shared store for all replicas. */
export interface SingleUseStore {
  /**
   * Atomically start a round for `tokenId`, unless one ran or runs. A started round holds a
   * lease of `leaseMs`; past it, the token may start again. The record may be forgotten after
   * `expiresAt` (ms since the epoch), when the token no longer opens anyway.
   */
  begin(tokenId: string, options: { leaseMs: number; expiresAt: number }): Promise<SingleUseBegin>;
  /** The round completed with `outcome`: keep it for `replayWindowMs`, then only remember the id. */
  finish(
    tokenId: string,
    outcome: string,
    options: { replayWindowMs: number; expiresAt: number },
  ): Promise<void>;
  /** The round failed: a retry of the token may run again. */
  release(tokenId: string): Promise<void>;
}

/** Options of {@link createMemorySingleUseStore}. */
export interface MemorySingleUseStoreOptions {
  /** The most token ids held at once. Default 100 000. */
  maxEntries?: number;
  /** Milliseconds since the epoch; injectable for tests. Default `Date.now`. */
  now?: () => number;
}

type Entry =
  | { state: 'running'; until: number; expiresAt: number }
  | { state: 'finished'; outcome: string | undefined; replayUntil: number; expiresAt: number };

const API = 'createMemorySingleUseStore';

/**
 * A {@link SingleUseStore} in this process's memory: right for one process, wrong for several
 * replicas. When full of live ids it refuses (fails closed) rather than forget one.
 */
const MEMORY_STORE_OPTIONS = optionKeys<MemorySingleUseStoreOptions>()(['maxEntries', 'now']);

export function createMemorySingleUseStore(
  options: MemorySingleUseStoreOptions = {},
): SingleUseStore {
  checkOptionKeys(API, 'options', options, MEMORY_STORE_OPTIONS);
  const { maxEntries = 100_000, now = Date.now } = options;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(
      `${API}: maxEntries must be a positive integer (got ${String(maxEntries)})`,
    );
  }
  const entries = new Map<string, Entry>();

  function sweep(time: number): void {
    for (const [id, entry] of entries) if (entry.expiresAt <= time) entries.delete(id);
  }

  return {
    async begin(tokenId, { leaseMs, expiresAt }) {
      const time = now();
      const entry = entries.get(tokenId);
      if (entry !== undefined && entry.expiresAt > time) {
        if (entry.state === 'finished') {
          return entry.outcome !== undefined && time < entry.replayUntil
            ? { status: 'finished', outcome: entry.outcome }
            : { status: 'spent' };
        }
        if (time < entry.until) return { status: 'running' };
      }
      if (entry === undefined && entries.size >= maxEntries) {
        sweep(time);
        if (entries.size >= maxEntries) {
          throw new Error(
            `${API}: full (${maxEntries} live token ids); refusing rather than forgetting one. Raise maxEntries or use a shared store`,
          );
        }
      }
      entries.set(tokenId, { state: 'running', until: time + leaseMs, expiresAt });
      return { status: 'started' };
    },
    async finish(tokenId, outcome, { replayWindowMs, expiresAt }) {
      entries.set(tokenId, {
        state: 'finished',
        outcome,
        replayUntil: now() + replayWindowMs,
        expiresAt,
      });
    },
    async release(tokenId) {
      const entry = entries.get(tokenId);
      if (entry?.state === 'running') entries.delete(tokenId);
    },
  };
}

/** How a round uses its token. */
export interface SingleUsePolicy {
  store: SingleUseStore;
  leaseMs: number;
  replayWindowMs: number;
  /** Outcomes the store could not take yet (`keptOutcomes.ts`), in this process. */
  kept: KeptOutcomes;
}

/** What a round may do with its token. */
export type TokenUse =
  | {
      kind: 'run';
      /**
       * Record the round's outcome (its reply). Never rejects: when the store cannot take it,
       * it is kept in this process and written again until the store does.
       */
      finish: (outcome: unknown) => Promise<void>;
      /** The round failed before its handler ran: a retry may run it. */
      release: () => Promise<void>;
    }
  | { kind: 'replay'; outcome: unknown }
  | { kind: 'refuse' };

const POLL_MS = 25;

/**
 * Begin using a token: run the round, send the outcome it already had, or refuse it. A use that
 * finds another one running waits for it, polling, until it finishes or its lease runs out.
 */
export async function useToken(
  policy: SingleUsePolicy,
  tokenId: string,
  expiresAt: number,
  signal?: AbortSignal,
): Promise<TokenUse> {
  const { store, leaseMs, replayWindowMs, kept } = policy;
  const giveUpAt = Date.now() + leaseMs + POLL_MS;
  for (;;) {
    // An outcome this process could not record yet is the token's, whatever the store says.
    const held = kept.get(tokenId);
    if (held !== undefined) return { kind: 'replay', outcome: JSON.parse(held) as unknown };
    const found = await store.begin(tokenId, { leaseMs, expiresAt });
    switch (found.status) {
      case 'started':
        return {
          kind: 'run',
          finish: (outcome) => {
            const json = JSON.stringify(outcome);
            const write = () => store.finish(tokenId, json, { replayWindowMs, expiresAt });
            // Never a failure of the round, never a release: the handler ran.
            return write().catch(() => kept.keep(tokenId, json, expiresAt, write));
          },
          release: () => store.release(tokenId),
        };
      case 'finished':
        return { kind: 'replay', outcome: JSON.parse(found.outcome) as unknown };
      case 'spent':
        return { kind: 'refuse' };
      case 'running':
        if (Date.now() > giveUpAt || signal?.aborted === true) return { kind: 'refuse' };
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

/** An opened state, with the round's claim on its token (single use), or none. */
export interface ClaimedState {
  envelope: FlowEnvelope;
  use: TokenUse | undefined;
}

/** A spent token's first outcome, sent again instead of running anything. */
export interface ReplayedOutcome {
  replay: unknown;
}

/**
 * Claim an opened token for this round before anything runs: run it, send the outcome its first
 * round had, or refuse it (a replay past the window) as invalid state.
 */
export async function claimToken(
  policy: SingleUsePolicy,
  opening: OpenedEnvelope | Promise<OpenedEnvelope>,
  req: { readonly signal: AbortSignal; readonly trace?: RequestTrace | undefined },
): Promise<ClaimedState | ReplayedOutcome> {
  const { envelope, token } = await opening;
  if (token === undefined) return { envelope, use: undefined };
  const use = await useToken(policy, token.id, token.expiresAt, req.signal);
  if (use.kind === 'replay') return { replay: use.outcome };
  if (use.kind === 'refuse') {
    req.trace?.refusedReplay();
    throw new InvalidRequestStateError({ reason: 'replayed' });
  }
  return { envelope, use };
}
