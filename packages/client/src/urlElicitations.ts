import {
  RoundsExceededError,
  type ElicitUrlParams,
  type InputRequests,
  type InputRequiredResult,
  type InputResponses,
  type UrlElicitationRequiredError,
} from '@parley/core';

import type { InputAnswerer } from './inputAnswerer.ts';
import type { CallInfo, RoundEvent } from './types.ts';

/**
 * MCP 2025-11-25's `-32042`: the server refuses a request until the user completes one or more
 * URL elicitations (a consent page, a payment). The client asks its elicitation handler about
 * each page, in order, as one round of the call; when every page is accepted it waits for the
 * server's `notifications/elicitation/complete` (bounded by the call's wait) and the request is
 * sent again. A page declined or cancelled ends the call with the error itself.
 */

/** The `notifications/elicitation/complete` a connection received, for waiting on them. */
export class ElicitationCompletions {
  /** Recently completed ids; bounded, since a server may send many over a long session. */
  readonly #done = new Set<string>();
  readonly #waiting = new Set<() => void>();

  /** The server says `elicitationId` is complete. */
  complete(elicitationId: string): void {
    this.#done.add(elicitationId);
    if (this.#done.size > 256) this.#done.delete(this.#done.values().next().value as string);
    for (const wake of [...this.#waiting]) wake();
  }

  /** Resolves once every id is complete, after `timeoutMs`, or when `signal` aborts. */
  waitFor(
    ids: readonly string[],
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const allDone = (): boolean => ids.every((id) => this.#done.has(id));
    if (allDone() || signal?.aborted === true) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.#waiting.delete(check);
        signal?.removeEventListener('abort', finish);
        resolve();
      };
      const check = (): void => {
        if (allDone()) finish();
      };
      const timer = setTimeout(finish, timeoutMs);
      this.#waiting.add(check);
      signal?.addEventListener('abort', finish, { once: true });
    });
  }
}

/** The pages of a `-32042` as the ask they amount to (for `RoundsExceededError.lastResult`). */
export function urlPagesAsAsk(error: UrlElicitationRequiredError): InputRequiredResult {
  return {
    resultType: 'input_required',
    inputRequests: Object.fromEntries(
      (error.data?.elicitations ?? []).map((page) => [
        page.elicitationId,
        { method: 'elicitation/create', params: { ...page, mode: 'url' } },
      ]),
    ),
  };
}

/** What answering the pages of one `-32042` needs. */
export interface UrlElicitationRound {
  answer: InputAnswerer;
  completions: ElicitationCompletions;
  emit(event: RoundEvent): void;
  era: 'handshake' | 'modern';
  protocolVersion: string;
  call: CallInfo;
  round: number;
  maxRounds: number;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/**
 * Ask about every page of `error`; `true` when all were accepted and the request should be sent
 * again (the completions waited for), `false` when the user declined or cancelled one.
 *
 * @throws {RoundsExceededError} when `round.round` is past `round.maxRounds`; `data.lastResult`
 *   is the pages as an ask.
 */
export async function completeUrlElicitations(
  error: UrlElicitationRequiredError,
  round: UrlElicitationRound,
): Promise<boolean> {
  if (round.round > round.maxRounds) {
    throw new RoundsExceededError(
      `${round.call.method} '${round.call.name}'`,
      { maxRounds: round.maxRounds, lastResult: urlPagesAsAsk(error) },
      { cause: error },
    );
  }
  const pages = error.data?.elicitations ?? [];
  const asked: InputRequests = {};
  const answered: InputResponses = {};
  let accepted = true;
  const signal = round.signal ?? new AbortController().signal;
  for (const page of pages) {
    const params: ElicitUrlParams = { ...page, mode: 'url' };
    const request = { method: 'elicitation/create' as const, params };
    asked[page.elicitationId] = request;
    const response = await round.answer(request, {
      era: round.era,
      protocolVersion: round.protocolVersion,
      call: round.call,
      round: round.round,
      key: page.elicitationId,
      signal,
    });
    answered[page.elicitationId] = response;
    if ((response as { action?: unknown }).action !== 'accept') {
      accepted = false;
      break;
    }
  }
  round.emit({
    era: round.era,
    call: round.call,
    round: round.round,
    maxRounds: round.maxRounds,
    asked,
    answered,
  });
  if (!accepted) return false;
  await round.completions.waitFor(
    pages.map((page) => page.elicitationId),
    round.timeoutMs,
    round.signal,
  );
  return true;
}
