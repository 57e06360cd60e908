import type { AuthInfo, JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

import type { SessionJournal } from './handover.ts';
import { isResponse } from './keptMessages.ts';
import type { SessionStream } from './sessionStreams.ts';

/**
 * The requests one session's transport sent its client (its calls' questions), when the session
 * is kept in a session store. Every answer the client posts is kept in the store before it goes
 * on, so a replica that takes the call over has it; then it goes to this process's SDK when this
 * process asked, and otherwise to whichever replica waits for it (through the store's notices).
 * An answer to a question asked here but posted to another replica comes back the same way.
 */

/** A request sent from here: on which stream, and how its answer may come back. */
interface SentHere {
  stream: SessionStream | undefined;
  /** Stop hearing of its answer posted to another replica (a kept call's question). */
  unwatch?: () => void;
}

/** Where answers go in this process. */
export interface AnswerRoutes {
  deliver(message: JSONRPCMessage, authInfo?: AuthInfo): void;
  failed(error: unknown): void;
}

export class SentRequests {
  readonly #journal: SessionJournal;
  readonly #routes: AnswerRoutes;
  readonly #sent = new Map<RequestId, SentHere>();

  constructor(journal: SessionJournal, routes: AnswerRoutes) {
    this.#journal = journal;
    this.#routes = routes;
  }

  /** `question` is sent on `stream` (`undefined`: the session's GET stream). */
  async sent(
    question: JSONRPCMessage & { id: RequestId; method: string; params?: unknown },
    stream: SessionStream | undefined,
  ): Promise<void> {
    const sent: SentHere = { stream };
    const { id } = question;
    this.#sent.set(id, sent);
    const call = stream?.journal;
    if (call === undefined) return;
    await call
      .pushed({ id, method: question.method, params: question.params })
      .catch((error: unknown) => this.#routes.failed(error));
    sent.unwatch = this.#journal.watchAnswer(id, (answer) => {
      if (this.#take(id) !== undefined && stream?.handedOver !== true) {
        this.#routes.deliver(answer);
      }
    });
  }

  /**
   * A message of the client's that is no request. `false`: an answer for another replica that
   * could not be kept (the client should send it again).
   */
  async answer(message: JSONRPCMessage, authInfo: AuthInfo | undefined): Promise<boolean> {
    const id = (message as { id?: RequestId }).id;
    if (!isResponse(message) || id === undefined) {
      this.#routes.deliver(message, authInfo);
      return true;
    }
    const sent = this.#take(id);
    const kept = await this.#journal.answered(message as JSONRPCMessage & { id: RequestId }).then(
      () => true,
      (error: unknown) => {
        this.#routes.failed(error);
        return false;
      },
    );
    if (sent !== undefined && sent.stream?.handedOver !== true) {
      this.#routes.deliver(message, authInfo);
    }
    return kept || sent !== undefined;
  }

  /** `stream`'s call answered: its questions still unanswered (timed out) wait for nothing. */
  streamDone(stream: SessionStream): void {
    for (const [id, sent] of this.#sent) if (sent.stream === stream) this.#take(id);
  }

  close(): void {
    for (const id of [...this.#sent.keys()]) this.#take(id);
  }

  #take(id: RequestId): SentHere | undefined {
    const sent = this.#sent.get(id);
    this.#sent.delete(id);
    sent?.unwatch?.();
    return sent;
  }
}
