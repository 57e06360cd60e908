import { MODERN_PROTOCOL_VERSION } from '../protocolVersions.ts';
import type { InputRequiredResult } from '../inputRequired.ts';
import type { ClientCapabilities, ElicitUrlParams } from '../wireTypes.ts';
import { handlerLabel, type HandlerKind } from '../handlers.ts';
import { ParleyError } from './parleyError.ts';

/** Who asked, and on which version, for an {@link EraMismatchError}. */
export interface EraMismatchData {
  kind: HandlerKind;
  name: string;
  protocolVersion: string;
  /** The API that was used on the wrong era. */
  used: 'inputRequired' | 'ctx.elicit()' | 'ctx.elicitUrl()' | 'ctx.sample()' | 'ctx.listRoots()';
}

/**
 * A handler used the input API of the other era: an `InputRequiredResult` on a handshake-era
 * connection, or a server-initiated request (`ctx.elicit()` and friends) on a modern one. The
 * message names the handler, the negotiated version and the API to use instead: `ctx.ask`, which
 * works on both eras, first.
 */
export class EraMismatchError extends ParleyError<EraMismatchData> {
  static override readonly brand: string = '@parley/core:EraMismatchError';

  constructor(data: EraMismatchData, options: { cause?: unknown } = {}) {
    super('era_mismatch', eraMismatchMessage(data), { data, ...options });
  }
}

/** The builder of the ask `ctx.ask` takes in place of each pushing API. */
const ASK_BUILDER = {
  'ctx.elicit()': 'elicitRequest',
  'ctx.elicitUrl()': 'elicitUrlRequest',
  'ctx.sample()': 'sampleRequest',
  'ctx.listRoots()': 'rootsRequest',
} as const satisfies Record<Exclude<EraMismatchData['used'], 'inputRequired'>, string>;

function eraMismatchMessage({ kind, name, protocolVersion, used }: EraMismatchData): string {
  const who = handlerLabel({ kind, name });
  if (used === 'inputRequired') {
    return (
      `${who} returned an InputRequiredResult to request client input, but the multi-round-trip ` +
      `result type (SEP-2322) only exists at MCP ${MODERN_PROTOCOL_VERSION}; this connection ` +
      `negotiated '${protocolVersion}'. Use ctx.ask(key, ask), which asks on both eras (here: a ` +
      `request to the client, awaited), or ctx.elicit() for server-initiated input on ` +
      `handshake-era connections.`
    );
  }
  return (
    `${who} called ${used} to request client input, but server-initiated requests do not exist ` +
    `at MCP ${MODERN_PROTOCOL_VERSION} (SEP-2322, SEP-2575); this request negotiated ` +
    `'${protocolVersion}'. Use ctx.ask(key, ${ASK_BUILDER[used]}(...)), which asks on both eras ` +
    `(here: a round the client answers and retries), or return inputRequired({ inputRequests }) ` +
    `(the guard pattern) for client input on modern connections.`
  );
}

/** The client capability an {@link UnsupportedCapabilityError} is about. */
export type ClientFeature = 'elicitation' | 'URL elicitation' | 'sampling' | 'roots';

/** What an {@link UnsupportedCapabilityError} carries. */
export interface UnsupportedCapabilityData {
  feature: ClientFeature;
  /** In the shape the modern `-32021` error carries it. */
  requiredCapabilities: ClientCapabilities;
}

/**
 * The client did not declare the capability a request needs ("elicitation not supported by this
 * client"). Raised before anything is sent, so a handler can catch it and carry on.
 */
export class UnsupportedCapabilityError extends ParleyError<UnsupportedCapabilityData> {
  static override readonly brand: string = '@parley/core:UnsupportedCapabilityError';

  constructor(
    data: UnsupportedCapabilityData,
    options: { message?: string; cause?: unknown } = {},
  ) {
    super(
      'unsupported_capability',
      options.message ?? `${data.feature} not supported by this client`,
      {
        data,
        cause: options.cause,
      },
    );
  }
}

/** What a {@link RoundsExceededError} carries: how far it got and the ask it stopped at. */
export interface RoundsExceededData {
  maxRounds: number;
  /** The last `input_required` result, which was not answered. */
  lastResult: InputRequiredResult;
}

/** A multi-round request still asked for input after the allowed number of rounds. */
export class RoundsExceededError extends ParleyError<RoundsExceededData> {
  static override readonly brand: string = '@parley/core:RoundsExceededError';

  constructor(method: string, data: RoundsExceededData, options: { cause?: unknown } = {}) {
    super(
      'rounds_exceeded',
      `${method} still asked for input after ${data.maxRounds} round${data.maxRounds === 1 ? '' : 's'} (maxRounds); the flow was stopped.`,
      { data, ...options },
    );
  }
}

/** What an {@link InvalidAnswerError} carries. */
export interface InvalidAnswerData {
  /** The field the problem is in; absent when the answer as a whole is wrong. */
  field?: string;
  /** The `inputRequests` key the answer came back under, when known. */
  key?: string;
  /**
   * Why the answer was refused: the kind of problem (`expected a date (YYYY-MM-DD)`), never the
   * answer itself, which may be personal data. It is in the message, so it reaches logs,
   * `onError` and the client's error.
   */
  reason: string;
}

function invalidAnswerMessage(data: InvalidAnswerData, reason: string): string {
  const where = [
    data.key !== undefined ? `to '${data.key}'` : undefined,
    data.field !== undefined ? `in field '${data.field}'` : undefined,
  ].filter((part) => part !== undefined);
  return `Invalid answer${where.length ? ' ' + where.join(' ') : ''}: ${reason}`;
}

/**
 * An answer does not fit the schema it was asked with. Its message and `data` name the field and
 * the kind of problem, never the answer: answers are what a person typed, and errors end up in
 * logs. What may quote the answer is kept apart, for the person who gave it
 * ({@link InvalidAnswerError.reasonWithAnswer}: the server's re-ask says it).
 */
export class InvalidAnswerError extends ParleyError<InvalidAnswerData> {
  static override readonly brand: string = '@parley/core:InvalidAnswerError';

  /** A private field, not a property: no `String()`, `JSON.stringify` or `inspect` shows it. */
  readonly #reasonWithAnswer: string | undefined;

  /**
   * @param options.reasonWithAnswer The reason in words that may quote the answer (`expected a
   *   date (YYYY-MM-DD), got the string "tomorow"`), for the person who gave it. Kept off the
   *   message, `data` and `toJSON()`.
   */
  constructor(
    data: InvalidAnswerData,
    options: { cause?: unknown; reasonWithAnswer?: string } = {},
  ) {
    const { reasonWithAnswer, ...rest } = options;
    super('invalid_answer', invalidAnswerMessage(data, data.reason), { data, ...rest });
    this.#reasonWithAnswer = reasonWithAnswer;
  }

  /**
   * The reason as the person who answered may read it: it may quote their answer (`got the
   * string "tomorow"`). For them (a re-ask, a prompt in front of them), or for logs that record
   * answers anyway; `data.reason` when there is nothing more to say.
   */
  reasonWithAnswer(): string {
    return this.#reasonWithAnswer ?? this.data?.reason ?? this.message;
  }

  /** The message with {@link InvalidAnswerError.reasonWithAnswer} in place of the reason. */
  messageWithAnswer(): string {
    return this.data === undefined
      ? this.message
      : invalidAnswerMessage(this.data, this.reasonWithAnswer());
  }
}

/** What an {@link InvalidRequestStateError} carries (never sent to the client). */
export interface InvalidRequestStateData {
  /** Why the state did not open: for server logs only, so attackers get no oracle. */
  reason: string;
}

/** `requestState` is tampered, expired, foreign, replayed or otherwise does not open. */
export class InvalidRequestStateError extends ParleyError<InvalidRequestStateData> {
  static override readonly brand: string = '@parley/core:InvalidRequestStateError';

  constructor(data: InvalidRequestStateData, options: { cause?: unknown } = {}) {
    super('invalid_request_state', `Invalid or expired requestState (${data.reason})`, {
      data,
      ...options,
    });
  }
}

/** What an {@link InvalidInputResponsesError} carries. */
export interface InvalidInputResponsesData {
  /** The offending key, when one entry is at fault. */
  key?: string;
  reason: string;
}

/** `inputResponses` on a retry is malformed: not an object, or an entry of the wrong shape. */
export class InvalidInputResponsesError extends ParleyError<InvalidInputResponsesData> {
  static override readonly brand: string = '@parley/core:InvalidInputResponsesError';

  constructor(data: InvalidInputResponsesData, options: { cause?: unknown } = {}) {
    const where = data.key !== undefined ? ` (entry '${data.key}')` : '';
    super('invalid_input_responses', `Invalid inputResponses${where}: ${data.reason}`, {
      data,
      ...options,
    });
  }
}

/** What an {@link UnsupportedProtocolVersionError} carries, as the `-32022` error does. */
export interface UnsupportedProtocolVersionData {
  supported: string[];
  requested: string;
}

/** The peer asked for a protocol version this side does not speak. */
export class UnsupportedProtocolVersionError extends ParleyError<UnsupportedProtocolVersionData> {
  static override readonly brand: string = '@parley/core:UnsupportedProtocolVersionError';

  constructor(data: UnsupportedProtocolVersionData, options: { cause?: unknown } = {}) {
    super(
      'unsupported_protocol_version',
      `Unsupported protocol version '${data.requested}'; supported: ${data.supported.join(', ')}`,
      { data, ...options },
    );
  }
}

/** One URL elicitation a {@link UrlElicitationRequiredError} needs the user to complete. */
export interface RequiredUrlElicitation {
  /** What to tell the user about the page: why they are sent there. */
  message: string;
  /** The page to open (shown in full, never pre-fetched). */
  url: string;
  /** Correlates the `notifications/elicitation/complete` the server sends when it is done. */
  elicitationId: string;
}

/** What a {@link UrlElicitationRequiredError} carries, as the `-32042` error does. */
export interface UrlElicitationRequiredData {
  elicitations: (ElicitUrlParams & { elicitationId: string })[];
}

function checkUrlElicitation(value: unknown, index: number): RequiredUrlElicitation {
  const entry = value as Partial<RequiredUrlElicitation> | null;
  const where = `UrlElicitationRequiredError: elicitations[${index}]`;
  if (typeof entry !== 'object' || entry === null)
    throw new TypeError(`${where} must be an object.`);
  for (const field of ['message', 'url', 'elicitationId'] as const) {
    if (typeof entry[field] !== 'string' || entry[field].length === 0) {
      throw new TypeError(`${where}.${field} must be a non-empty string.`);
    }
  }
  if (!URL.canParse(entry.url as string)) {
    throw new TypeError(`${where}.url must be an absolute URL, got ${JSON.stringify(entry.url)}.`);
  }
  return entry as RequiredUrlElicitation;
}

/**
 * The request cannot go on until the user completes one or more URL elicitations (an OAuth
 * consent at a third party, a payment page): MCP 2025-11-25's `-32042`. A handler throws it;
 * a handshake-era client gets the `-32042` error, a modern one (where `-32042` no longer
 * exists) gets the same pages as URL asks of an `input_required` result. A Parley client
 * answers it by asking its `elicitationHandler` and retrying the request.
 */
export class UrlElicitationRequiredError extends ParleyError<UrlElicitationRequiredData> {
  static override readonly brand: string = '@parley/core:UrlElicitationRequiredError';

  constructor(
    elicitations: readonly RequiredUrlElicitation[],
    options: { message?: string; cause?: unknown } = {},
  ) {
    if (!Array.isArray(elicitations) || elicitations.length === 0) {
      throw new TypeError(
        'UrlElicitationRequiredError: elicitations must be a non-empty list of { message, url, elicitationId }.',
      );
    }
    const checked = elicitations
      .map(checkUrlElicitation)
      .map(({ message, url, elicitationId }) => ({
        mode: 'url' as const,
        message,
        url,
        elicitationId,
      }));
    super(
      'url_elicitation_required',
      options.message ??
        `This request needs the user to complete ${checked.length === 1 ? 'a URL elicitation' : `${checked.length} URL elicitations`} first.`,
      { data: { elicitations: checked }, cause: options.cause },
    );
  }
}

/** What a {@link TaskCancelledError} carries. */
export interface TaskCancelledData {
  taskId: string;
  /** Why, as the server put it on the task, when it did. */
  statusMessage?: string;
}

/**
 * A call that became a task ended `cancelled` (by the caller, another client, or the server)
 * instead of with a result.
 */
export class TaskCancelledError extends ParleyError<TaskCancelledData> {
  static override readonly brand: string = '@parley/core:TaskCancelledError';

  constructor(data: TaskCancelledData, options: { cause?: unknown } = {}) {
    super(
      'task_cancelled',
      `Task ${data.taskId} was cancelled${data.statusMessage !== undefined ? `: ${data.statusMessage}` : ''}.`,
      { data, ...options },
    );
  }
}

/** Why a {@link SessionClosedError}'s session ended. */
export type SessionCloseReason =
  /** The client ended it (`DELETE`). */
  | 'deleted'
  /** Nothing used it for the session idle timeout. */
  | 'idle'
  /** Its calls' stream dropped and no stream came back within the resume window. */
  | 'stream_lost'
  /** The server is shutting down. */
  | 'shutdown'
  /**
   * The server is shutting down and handed the call to another replica, which runs it on from
   * the question it was waiting on (`http.sessionStore`): this run of the handler ends here.
   */
  | 'handed_over';

/** What a {@link SessionClosedError} carries. */
export interface SessionClosedData {
  reason: SessionCloseReason;
  /** The handshake-era session (`Mcp-Session-Id`), when there was one. */
  sessionId?: string;
}

const CLOSE_REASON_TEXT: Record<SessionCloseReason, string> = {
  deleted: 'the client ended the session',
  idle: 'the session expired unused',
  stream_lost:
    "the client's stream closed and did not come back within the resume window, so the session was closed",
  shutdown: 'the server is shutting down; the client may retry on another server',
  handed_over:
    'the server is shutting down and handed the call to another server, where it goes on',
};

/**
 * A server-initiated request (`ctx.elicit()`, `ctx.sample()`, `ctx.listRoots()`) that cannot be
 * answered any more, because the connection it needed is gone: the handler learns at once,
 * instead of waiting out the timeout for an answer that cannot come.
 */
export class SessionClosedError extends ParleyError<SessionClosedData> {
  static override readonly brand: string = '@parley/core:SessionClosedError';

  constructor(data: SessionClosedData, options: { cause?: unknown } = {}) {
    super(
      'session_closed',
      `The request to the client was abandoned: ${CLOSE_REASON_TEXT[data.reason]}.`,
      { data, ...options },
    );
  }
}
