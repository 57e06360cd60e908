import { isRecord } from '@parley/core';

import { claimsEnvelope } from '../modern/envelope.ts';
import { errorReply, idOf } from '../modern/errorReply.ts';
import type { JsonRpcOut } from '../modern/messages.ts';

/**
 * JSON-RPC batches over stdio. Protocol revision 2025-03-26 says implementations MUST support
 * receiving batches; 2025-06-18 removed them, and the modern era has none. So a batch is served
 * only on a session that negotiated 2025-03-26 (after `initialize`, which is never batched):
 * each message goes on as if it had come alone, and the responses to its requests go back
 * together, as one JSON array on one line (a batch of notifications and responses gets no
 * answer). Everywhere else a batch is refused with one `-32600` that says why.
 */

/** The one revision whose stdio sessions take batches. */
export const BATCH_REVISION = '2025-03-26';

/** The most messages a batch may hold (as over HTTP). */
const MAX_BATCH = 100;

type Id = string | number;

/** One batch whose requests are not all answered yet. */
interface OpenBatch {
  waiting: Set<Id>;
  answers: JsonRpcOut[];
}

/** What a batch turned into: the messages to take in, or the one answer that refuses it. */
export type BatchIntake =
  { refused: JsonRpcOut } | { messages: unknown[]; answers: JsonRpcOut[]; done: boolean };

/** Why a message of a batch cannot be taken, or `undefined` (the line reader's own check). */
export type ProblemOf = (value: unknown) => string | undefined;

function refusal(reason: string): { refused: JsonRpcOut } {
  return { refused: errorReply('invalidRequest', `Invalid Request: ${reason}`).message };
}

function isRequest(value: unknown): value is { id: Id; method: string } {
  return isRecord(value) && typeof value.method === 'string' && idOf(value) !== null;
}

/** The batches of one stdio connection, from arrival to their one answer. */
export class StdioBatches {
  readonly #open = new Map<Id, OpenBatch>();

  /**
   * Take in a batch that arrived on a connection at `revision` (`undefined` before
   * `initialize`): what to deliver, and the answers already known (refusals of single
   * messages). `done` says the batch has nothing left to wait for.
   */
  take(entries: unknown[], revision: string | undefined, problemOf: ProblemOf): BatchIntake {
    if (revision !== BATCH_REVISION) {
      return refusal(
        `JSON-RPC batches are served only on a ${BATCH_REVISION} session (protocol revision ` +
          `${BATCH_REVISION} allows them, later ones do not); this connection ` +
          (revision === undefined ? 'has no session yet' : `negotiated ${revision}`),
      );
    }
    if (entries.length === 0) return refusal('the batch is empty');
    if (entries.length > MAX_BATCH)
      return refusal(`a batch may hold at most ${MAX_BATCH} messages`);
    if (entries.some((entry) => claimsEnvelope(entry))) {
      return refusal(
        'JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later',
      );
    }
    if (entries.some((entry) => isRecord(entry) && entry.method === 'initialize')) {
      return refusal('initialize must be sent alone, not in a batch');
    }
    const batch: OpenBatch = { waiting: new Set(), answers: [] };
    const messages: unknown[] = [];
    for (const entry of entries) {
      const problem = problemOf(entry);
      if (problem === undefined && isRequest(entry) && this.#isWaiting(entry.id, batch)) {
        batch.answers.push(
          errorReply(
            'invalidRequest',
            `Invalid Request: the id ${JSON.stringify(entry.id)} is already in use by a request not yet answered`,
            { id: entry.id },
          ).message,
        );
        continue;
      }
      if (problem !== undefined) {
        // As alone: a broken notification gets no answer; anything else its error.
        const notification =
          isRecord(entry) && typeof entry.method === 'string' && !('id' in entry);
        if (!notification) {
          batch.answers.push(
            errorReply('invalidRequest', `Invalid Request: ${problem}`, { id: idOf(entry) })
              .message,
          );
        }
        continue;
      }
      if (isRequest(entry)) {
        batch.waiting.add(entry.id);
        this.#open.set(entry.id, batch);
      }
      messages.push(entry);
    }
    return { messages, answers: batch.answers, done: batch.waiting.size === 0 };
  }

  #isWaiting(id: Id, batch: OpenBatch): boolean {
    return this.#open.has(id) || batch.waiting.has(id);
  }

  /**
   * A response on its way out: `undefined` when it is not a batch's (write it alone), else the
   * batch's answers once this was the last one awaited (write them as one line), else `[]`
   * (held until the rest are answered).
   */
  answer(message: unknown): JsonRpcOut[] | undefined {
    if (!isRecord(message) || 'method' in message || !('result' in message || 'error' in message)) {
      return undefined;
    }
    const id = idOf(message);
    const batch = id === null ? undefined : this.#open.get(id);
    if (batch === undefined || id === null) return undefined;
    batch.answers.push(message as unknown as JsonRpcOut);
    return this.#settle(batch, id) ? batch.answers : [];
  }

  /**
   * A `notifications/cancelled` came in: a cancelled request is not answered, so its batch no
   * longer waits for it. Returns the batch's answers when nothing else is awaited.
   */
  cancelled(message: unknown): JsonRpcOut[] | undefined {
    if (!isRecord(message) || message.method !== 'notifications/cancelled') return undefined;
    const id = isRecord(message.params) ? message.params.requestId : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    const batch = this.#open.get(id);
    if (batch === undefined || !this.#settle(batch, id)) return undefined;
    return batch.answers;
  }

  /** `true` when `id` was the last request `batch` waited for. */
  #settle(batch: OpenBatch, id: Id): boolean {
    batch.waiting.delete(id);
    this.#open.delete(id);
    return batch.waiting.size === 0;
  }
}
