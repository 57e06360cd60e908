import { SessionClosedError, toJsonRpcError } from '@parley/core';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

import type { EventStore } from './eventStore.ts';
import type { CallRecord, SessionJournal } from './handover.ts';
import { holdsResponse } from './keptMessages.ts';
import { sseEvent, type Resumption, type SessionStream } from './sessionStreams.ts';
import type { EventSink } from './wire.ts';

/**
 * A client resumed the stream of a call this replica does not run (`http.sessionStore`): its
 * replica drained and handed it over, died, or is alive and the balancer sent the client here.
 *
 * - The call answered meanwhile, or kept no record: the client gets what it missed.
 * - Its replica is alive and runs it: this replica follows the call's events in the event store
 *   and passes them on, until the call answers or its replica lets go (the stream then ends, and
 *   the client's next reconnection takes the call over).
 * - No one runs it: this replica takes it over and runs it again from the top; what it asked
 *   before is answered from its record (`handover.ts`).
 * - It never asked or remembered anything before its replica died: it is not a flow with a
 *   person's answers to go on from, and running it again could repeat what it did. Its client
 *   gets an error at once, never a wait for a response that cannot come.
 */

/** What a transport lends the takeover. */
export interface TakeOverHost {
  journal: SessionJournal;
  events: EventStore;
  headers: Record<string, string>;
  /** Send what was missed and end the stream. */
  finish(): Promise<void> | void;
  /** Make the call's stream this transport's own, with the call's request unanswered on it. */
  adopt(requestId: RequestId): SessionStream;
  /** Open the response as that stream. */
  attach(stream: SessionStream): EventSink;
  /** Hand the call's request to the session's SDK, as if the client had just sent it. */
  run(request: JSONRPCMessage & { id: RequestId }): void;
}

/** How often a follower looks for new events of a call another replica runs. */
const FOLLOW_POLL_MS = 200;

export async function takeOver(resumption: Resumption, host: TakeOverHost): Promise<void> {
  const { journal } = host;
  const record = await journal.load(resumption.streamId).catch(() => undefined);
  const missed = resumption.events.map((event) => event.message);
  if (record === undefined || holdsResponse(missed, record.request.id)) return host.finish();
  const { handover } = journal;
  const owner = record.owner;
  if (
    owner !== null &&
    owner !== handover.replica &&
    (await handover.isAlive(owner).catch(() => true))
  ) {
    return follow(resumption, host, record.request.id);
  }
  if (record.pushed.length === 0 && Object.keys(record.remembered).length === 0) {
    return failCall(resumption, host, record);
  }
  const call = await journal.adopt(resumption.streamId, record).catch(() => undefined);
  if (call === undefined) return failCall(resumption, host, record);
  const stream = host.adopt(record.request.id);
  stream.journal = call;
  const sink = host.attach(stream);
  if (resumption.missed !== '') sink.write(resumption.missed);
  host.run(record.request);
}

/** Pass on the events of a call another replica runs, until it answers or lets go. */
async function follow(resumption: Resumption, host: TakeOverHost, requestId: RequestId) {
  let gone = false;
  const sink = resumption.responder.events(host.headers, () => void (gone = true));
  if (resumption.missed !== '') sink.write(resumption.missed);
  let last = resumption.events.at(-1)?.id ?? resumption.lastEventId;
  const { handover } = host.journal;
  while (!gone) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    let text = '';
    let answered = false;
    try {
      await host.events.replayEventsAfter(last, {
        send: async (id, message) => {
          text += sseEvent(message, id);
          last = id;
          if (holdsResponse([message], requestId)) answered = true;
        },
      });
    } catch {
      break;
    }
    if (text !== '') sink.write(text);
    if (answered) break;
    const record = await host.journal.load(resumption.streamId).catch(() => undefined);
    if (record === undefined) continue;
    // Let go (handed over) or gone: the client's next reconnection takes the call over.
    if (record.owner === null || !(await handover.isAlive(record.owner).catch(() => true))) break;
  }
  sink.end();
}

/**
 * The call cannot go on here (it never asked anything, or its record could not be taken): its
 * client hears so now, on the resumed stream.
 */
async function failCall(
  resumption: Resumption,
  host: TakeOverHost,
  record: CallRecord,
): Promise<void> {
  const error = new SessionClosedError({
    reason: 'shutdown',
    sessionId: host.journal.sessionId,
  });
  const message = {
    jsonrpc: '2.0',
    id: record.request.id,
    error: toJsonRpcError(error, { era: 'handshake' }),
  } as JSONRPCMessage;
  const eventId = await host.events.storeEvent(resumption.streamId, message).catch(() => undefined);
  const sink = resumption.responder.events(host.headers);
  sink.write(resumption.missed + sseEvent(message, eventId));
  sink.end();
  await host.journal.forget(resumption.streamId);
}
