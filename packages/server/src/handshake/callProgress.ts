/**
 * The progress notifications of one handshake-era call, on the `progressToken` its client sent:
 * the handler's own (`ctx.reportProgress`), and, while a request to the client waits for a person
 * (or the client's model), one every `everyMs`. Hosts give up on a call after a fixed time (60 s
 * is common), but most reset that timer on progress (the MCP Inspector by default, the SDK client
 * with `resetTimeoutOnProgress`): so a host waits as long as the person does, up to the server's
 * own wait (`elicitationTimeoutMs`). A call without a token gets no notices: its host's own
 * timer applies.
 *
 * MCP wants each notification's progress above the last one's, so both kinds share one line: a
 * waiting notice moves it up by a hair, and a report of the handler's that would go back is
 * lifted above it.
 */

/** How far a waiting notice moves the progress: invisible as a share of any real total. */
const STEP = 0.001;

/** The value a step above `last`, without binary fractions piling up in what clients show. */
function stepAbove(last: number): number {
  return Math.round((last + STEP) * 1e9) / 1e9;
}

/** What the person (or the client's model) is waited for, as the notice says it. */
const WAITING_FOR: Record<string, string> = {
  'elicitation/create': "Waiting for the user's answer",
  'sampling/createMessage': "Waiting for the client's model",
  'roots/list': "Waiting for the client's roots",
};

/** A `notifications/progress`, as the SDK's request context sends it. */
export type ProgressNotify = (notification: {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}) => Promise<void>;

export class CallProgress {
  readonly #notify: ProgressNotify;
  readonly #token: string | number;
  readonly #everyMs: number;
  #last: number | undefined;
  #waiting = 0;
  #method = 'elicitation/create';
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `everyMs`: how often a waiting call gets a notice; 0 sends none. */
  constructor(notify: ProgressNotify, token: string | number, everyMs: number) {
    this.#notify = notify;
    this.#token = token;
    this.#everyMs = everyMs;
  }

  /** The handler's own progress (`ctx.reportProgress`), never below what was sent before. */
  report(progress: number, total?: number, message?: string): Promise<void> {
    const last = this.#last;
    return this.#send(
      last === undefined || progress > last ? progress : stepAbove(last),
      total,
      message,
    );
  }

  /**
   * Keep the call alive while `pending`, a `method` request to the client, waits. Returns
   * `pending` itself: the notices stop when it settles, whichever way.
   */
  whileWaiting<T>(method: string, pending: Promise<T>): Promise<T> {
    if (this.#everyMs <= 0) return pending;
    this.#method = method;
    if (this.#waiting++ === 0) {
      this.#timer = setInterval(() => void this.#notice(), this.#everyMs);
      // A waiting call must not keep a stopping process alive: its own wait bounds it.
      this.#timer.unref?.();
    }
    const done = (): void => {
      if (--this.#waiting > 0) return;
      clearInterval(this.#timer);
      this.#timer = undefined;
    };
    pending.then(done, done);
    return pending;
  }

  #notice(): Promise<void> {
    const last = this.#last;
    // A stream that went away loses the notice, not the call: the answer may still come.
    return this.#send(
      last === undefined ? 0 : stepAbove(last),
      undefined,
      WAITING_FOR[this.#method],
    ).catch(() => undefined);
  }

  #send(progress: number, total: number | undefined, message: string | undefined): Promise<void> {
    this.#last = progress;
    return this.#notify({
      method: 'notifications/progress',
      params: {
        progressToken: this.#token,
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message !== undefined ? { message } : {}),
      },
    });
  }
}
