import { SessionClosedError } from '@parley/core';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

import { sameQuestion, settleAnswer, type PushedQuestion } from './keptMessages.ts';

import type { KeptCall } from '../handler/pushChannel.ts';
import { loadSdk, type Sdk } from '../utils/loadSdk.ts';
import { randomUUID } from '../utils/randomness.ts';
import type { SessionStore } from './sessionStore.ts';

/**
 * Handshake-era calls that outlive their replica (`http.sessionStore`). A session's `initialize`
 * is kept, so any replica can rebuild the session; each call that may ask the person something
 * keeps a record: its request, every question it pushed (with the id the client answers), and
 * its `ctx.remember` values. Every answer is kept too, whichever replica it is posted to, and
 * the replica waiting for it hears of it through the store's notices.
 *
 * A replica that drains hands its waiting calls over (it marks them unowned and ends their
 * streams, so their clients reconnect with `Last-Event-ID`); one that dies stops renewing its
 * heartbeat. The replica a client's resumed stream reaches takes the call over: it runs it again
 * from the top, answers every question already answered from the record without pushing it,
 * waits for the answer to the one still pending, and pushes only what comes after. While the
 * call's owner is alive and has not let go, it follows the call's events from the event store
 * instead.
 */

/** A session as kept: enough to rebuild it on any replica. */
export interface StoredSession {
  /** The client's `initialize` request, as it came. */
  initialize: JSONRPCMessage;
  principal: string | undefined;
}

/** What is kept of one call in flight. */
export interface CallRecord {
  /** The call as the client sent it (its id is the id of the response it waits for). */
  request: JSONRPCMessage & { id: RequestId };
  /** The replica running it; `null` once handed over. */
  owner: string | null;
  pushed: PushedQuestion[];
  remembered: Record<string, unknown>;
}

/** How often a replica says it is alive, and how long the word lasts. */
const HEARTBEAT_MS = 1_000;
const HEARTBEAT_TTL_MS = 3_000;

/** The store, as every session of one endpoint uses it. */
export class Handover {
  /** This process's id among the replicas. */
  readonly replica: string = randomUUID();
  readonly store: SessionStore;
  /** How long a kept session or call lasts without use. */
  readonly ttlMs: number;
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(store: SessionStore, ttlMs: number) {
    this.store = store;
    this.ttlMs = ttlMs;
  }

  /** Say this replica is alive, from now until {@link stop}. */
  start(): void {
    if (this.#heartbeat !== undefined) return;
    const beat = () =>
      void this.store.set(replicaKey(this.replica), '1', HEARTBEAT_TTL_MS).catch(() => {});
    beat();
    this.#heartbeat = setInterval(beat, HEARTBEAT_MS);
    this.#heartbeat.unref?.();
  }

  /** This replica stops: its heartbeat ends at once, so no one waits for it. */
  async stop(): Promise<void> {
    if (this.#heartbeat === undefined) return;
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    await this.store.delete(replicaKey(this.replica)).catch(() => {});
  }

  async isAlive(replica: string): Promise<boolean> {
    if (replica === this.replica) return this.#heartbeat !== undefined;
    return (await this.store.get(replicaKey(replica))) !== undefined;
  }

  saveSession(id: string, session: StoredSession): Promise<void> {
    return this.store.set(sessionKey(id), JSON.stringify(session), this.ttlMs);
  }

  /** The session kept under `id`; `undefined` when none is, or the store cannot say. */
  async loadSession(id: string): Promise<StoredSession | undefined> {
    try {
      const kept = await this.store.get(sessionKey(id));
      return kept === undefined ? undefined : (JSON.parse(kept) as StoredSession);
    } catch {
      return undefined;
    }
  }

  /** Keep the session `id` for another `ttlMs` from now (it is in use). */
  async touchSession(id: string): Promise<void> {
    const kept = await this.store.get(sessionKey(id)).catch(() => undefined);
    if (kept !== undefined) await this.store.set(sessionKey(id), kept, this.ttlMs).catch(() => {});
  }

  forgetSession(id: string): Promise<void> {
    return this.store.delete(sessionKey(id)).catch(() => {});
  }
}

const sessionKey = (id: string) => `session:${id}`;
const replicaKey = (id: string) => `replica:${id}`;
const callKey = (session: string, stream: string) => `call:${session}/${stream}`;
const answerKey = (session: string, id: RequestId) => `answer:${session}/${JSON.stringify(id)}`;

/** One session's part of the store. */
export class SessionJournal {
  readonly handover: Handover;
  readonly sessionId: string;

  constructor(handover: Handover, sessionId: string) {
    this.handover = handover;
    this.sessionId = sessionId;
  }

  /** A call begins here: its record is kept before its stream opens. */
  async begin(streamId: string, request: CallRecord['request']): Promise<CallJournal> {
    const record: CallRecord = {
      request,
      owner: this.handover.replica,
      pushed: [],
      remembered: {},
    };
    const call = new CallJournal(this, streamId, record, false);
    await call.save();
    return call;
  }

  /** The record of the call on `streamId`, if one is kept. */
  async load(streamId: string): Promise<CallRecord | undefined> {
    const kept = await this.handover.store.get(callKey(this.sessionId, streamId));
    return kept === undefined ? undefined : (JSON.parse(kept) as CallRecord);
  }

  /** Take over the call `record` describes: this replica runs it again from the top. */
  async adopt(streamId: string, record: CallRecord): Promise<CallJournal> {
    const call = new CallJournal(this, streamId, { ...record, owner: this.handover.replica }, true);
    await call.save();
    return call;
  }

  /** Keep the client's answer to one of the session's questions, and tell whoever waits. */
  async answered(message: JSONRPCMessage & { id: RequestId }): Promise<void> {
    const key = answerKey(this.sessionId, message.id);
    await this.handover.store.set(key, JSON.stringify(message), this.handover.ttlMs);
    await this.handover.store.notify(key);
  }

  /**
   * Hear of the answer to question `id` when any replica keeps it (and, with `lookNow`, if one is
   * kept already), until the return is called.
   */
  watchAnswer(
    id: RequestId,
    deliver: (answer: JSONRPCMessage) => void,
    lookNow = false,
  ): () => void {
    const { store } = this.handover;
    const key = answerKey(this.sessionId, id);
    const look = () =>
      void store.get(key).then(
        (kept) => {
          if (kept !== undefined) deliver(JSON.parse(kept) as JSONRPCMessage);
        },
        () => {},
      );
    const unwatch = store.watch(key, look);
    if (lookNow) look();
    return unwatch;
  }

  /** The answer to question `id`, kept or still to come (from any replica). */
  async awaitAnswer(
    id: RequestId,
    wait: { timeout: number; signal: AbortSignal },
  ): Promise<unknown> {
    // Loaded already (a session exists); awaited, never imported, so modern-only servers skip it.
    return this.#answerOf(id, wait, await loadSdk());
  }

  #answerOf(
    id: RequestId,
    wait: { timeout: number; signal: AbortSignal },
    sdk: Sdk,
  ): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      let done = false;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        unwatch?.();
        clearTimeout(timer);
        wait.signal.removeEventListener('abort', onAbort);
        settle();
      };
      const onAbort = () =>
        finish(() =>
          reject(
            wait.signal.reason ??
              new SessionClosedError({ reason: 'shutdown', sessionId: this.sessionId }),
          ),
        );
      const timer = setTimeout(
        // As the SDK says it when it waited on its own.
        () =>
          finish(() =>
            reject(
              new sdk.SdkError(sdk.SdkErrorCode.RequestTimeout, 'Request timed out', {
                timeout: wait.timeout,
              }),
            ),
          ),
        wait.timeout,
      );
      if (wait.signal.aborted) return onAbort();
      wait.signal.addEventListener('abort', onAbort, { once: true });
      const unwatch: (() => void) | undefined = this.watchAnswer(
        id,
        (answer) =>
          finish(() => {
            try {
              resolve(settleAnswer(answer, sdk));
            } catch (error) {
              reject(error);
            }
          }),
        true,
      );
    });
  }

  callKey(streamId: string): string {
    return callKey(this.sessionId, streamId);
  }

  /** The call on `streamId` is over, one way or another: its record goes. */
  forget(streamId: string): Promise<void> {
    return this.handover.store.delete(callKey(this.sessionId, streamId)).catch(() => {});
  }
}

/** The record of one call this replica runs, kept as it goes; what its pushes replay from. */
export class CallJournal implements KeptCall {
  readonly #session: SessionJournal;
  readonly #streamId: string;
  readonly record: CallRecord;
  /** Taken over from another replica: its first pushes are answered from the record. */
  readonly #replaying: boolean;
  /** How many pushes this run has made so far. */
  #cursor = 0;
  #saving: Promise<void> = Promise.resolve();

  constructor(session: SessionJournal, streamId: string, record: CallRecord, replaying: boolean) {
    this.#session = session;
    this.#streamId = streamId;
    this.record = record;
    this.#replaying = replaying;
  }

  get requestId(): RequestId {
    return this.record.request.id;
  }

  /** Keep the record (writes in order: a later one never lands before an earlier). */
  save(): Promise<void> {
    const { store, ttlMs } = this.#session.handover;
    const key = this.#session.callKey(this.#streamId);
    const value = JSON.stringify(this.record);
    const saving = this.#saving.catch(() => {}).then(() => store.set(key, value, ttlMs));
    this.#saving = saving;
    return saving;
  }

  /**
   * The answer to this run's next push, when the record has the question: kept, or awaited
   * (asked by the replica before, still pending). `undefined`: push it now.
   */
  replay(
    method: string,
    params: unknown,
    wait: { timeout: number; signal: AbortSignal },
  ): Promise<unknown> | undefined {
    const index = this.#cursor++;
    if (!this.#replaying) return undefined;
    const question = this.record.pushed[index];
    if (question === undefined) return undefined;
    if (!sameQuestion(question, method, params)) {
      // The run asks something else than before: what was asked from here on is stale.
      this.record.pushed.length = index;
      return undefined;
    }
    return this.#session.awaitAnswer(question.id, wait);
  }

  /** A question this run pushed now: kept before the client sees it. */
  pushed(question: PushedQuestion): Promise<void> {
    this.record.pushed.length = Math.min(this.record.pushed.length, this.#cursor - 1);
    this.record.pushed.push(question);
    return this.save();
  }

  has(key: string): boolean {
    return Object.hasOwn(this.record.remembered, key);
  }

  get(key: string): unknown {
    return this.record.remembered[key];
  }

  keep(key: string, value: unknown): Promise<void> {
    this.record.remembered[key] = value;
    return this.save();
  }

  /** This replica lets the call go: the next replica its client reaches takes it over. */
  handOver(): Promise<void> {
    this.record.owner = null;
    return this.save();
  }

  /** The call answered: nothing to take over any more (its record goes, once written). */
  finished(): void {
    void this.#saving.catch(() => {}).then(() => this.#session.forget(this.#streamId));
  }
}
