import type { HttpOptions } from '../http/httpOptions.ts';
import type { HttpRunOptions } from '../http/runHttp.ts';
import type { CloseOptions } from '../http/nodeListener.ts';
import type { ArgumentLimits } from '../round/limits.ts';
import type { SingleUseStore } from '../flow/singleUse.ts';
import type { TelemetryOptions } from '../telemetry/options.ts';
import type { AskRoute } from '../ask/askRoutes.ts';
import type { HostProfile } from '../ask/hostProfiles.ts';
import type { AskFallback } from '../handler/fallback/policy.ts';
import type { WarningReporter } from '../ask/schemaWarnings.ts';
import type { Clock } from '../tasks/clock.ts';
import type { TaskStore } from '../tasks/taskStore.ts';

/** Where tools that run as tasks keep their state, and how replicas share it. */
export interface TasksOptions {
  /**
   * The task store every replica shares (`createRedisTaskStore` from `@parley/redis`, say).
   * Default: in memory, right for one process.
   */
  store?: TaskStore;
  /** This replica's name in task leases. Default: a random id. */
  replicaId?: string;
  /**
   * How long a replica's hold on its tasks lasts without a heartbeat: a task whose replica died
   * is marked `failed` this long after its last beat. Default 30 s.
   */
  leaseMs?: number;
  /** The clock tasks are timed with (tests pass a manual one). Default: the system clock. */
  clock?: Clock;
}

/** How `requestState` is sealed. */
export interface RequestStateSecurity {
  /**
   * A key ring shared by every replica: `keys[0]` seals, every key opens. Each secret must be at
   * least 32 bytes (`npx @parley/state-sealing keygen` makes one). Default: the
   * `REQUEST_STATE_KEY` environment variable, the same ring comma-separated (this option wins
   * over it); without either, one random key per process (right for stdio and single workers),
   * which `run()` over HTTP warns about, and refuses under `NODE_ENV=production` unless
   * `allowEphemeralKeys` is set.
   */
  keys?: ReadonlyArray<string | Uint8Array>;
  /**
   * Without a key ring (no `keys`, no `REQUEST_STATE_KEY`), sealed state opens only in the
   * process that sealed it. `true` says that is meant (one process, state that may be lost on a
   * restart): `run()` over HTTP then neither warns nor refuses to start under
   * `NODE_ENV=production`. A key ring, when there is one, is used all the same. Default `false`.
   */
  allowEphemeralKeys?: boolean;
  /** How long a round's state stays valid, in milliseconds. Default 600 000 (10 minutes). */
  ttlMs?: number;
  /** The largest sealed state the server will mint. Default 8 KiB. */
  maxTokenBytes?: number;
  /**
   * Make every state single-use: `true` for a store in this process's memory, or a store shared
   * by every replica. A token is spent by the round that completes with it; a retry of a spent
   * token within `replayWindowMs` gets the same outcome again (the client's response was lost),
   * and after that it is refused. A round that fails does not spend its token. Default off.
   */
  singleUse?: boolean | SingleUseStore;
  /** Single use: how long a spent token's outcome is kept for retries. Default 60 000 ms. */
  replayWindowMs?: number;
  /**
   * Single use: how long a round may hold its token before it is presumed dead and the token
   * may be used again (a round whose process died is retried on another). Default 30 000 ms.
   */
  roundLeaseMs?: number;
  /** The clock, in milliseconds since the epoch (for tests). Default `Date.now`. */
  now?: () => number;
}

/** Options of {@link ParleyServer}. */
export interface ParleyServerOptions {
  /** The server's name: shown to clients, and the audience every sealed state is bound to. */
  name: string;
  version?: string;
  title?: string;
  instructions?: string;
  requestStateSecurity?: RequestStateSecurity;
  /**
   * Default wait for a person to answer a handshake-era request (`ctx.ask`, `ctx.elicit()`).
   * Default 600 000 (10 minutes).
   */
  elicitationTimeoutMs?: number;
  /**
   * While a handshake-era request waits for a person (`ctx.ask`, `ctx.elicit()`), a progress
   * notification on the call's `progressToken` every this many milliseconds, so a host that
   * resets its request timer on progress (the MCP Inspector does by default) keeps the call
   * open as long as the person takes, up to `elicitationTimeoutMs`. Calls without a token get
   * none. Default 15 000 (well under the common 60 s host timeout); 0 sends none.
   */
  waitProgressMs?: number;
  /**
   * How many times an answer that does not fit its question is asked again, saying what was
   * wrong, before the handler gets an `InvalidAnswerError` (both eras). Handlers may set their
   * own. Default 3; 0 turns re-asking off.
   */
  maxReasks?: number;
  /**
   * Bounds on what a request may carry (arguments and answers), checked before anything else:
   * past them the request gets `-32602`. Defaults: 64 levels deep, 100 000 values.
   */
  limits?: ArgumentLimits;
  /**
   * Server-side reports: why a `requestState` was rejected (the client only ever sees "Invalid or
   * expired requestState"), and failures of handlers. Default: one line on stderr.
   */
  onError?: (error: unknown, where: { method: string; target: string }) => void;
  /**
   * Warnings: compatibility warnings about the schemas handlers ask with (a top-level title, a
   * field that looks like a secret, a wrapper left with a generic label…, each reported once: at
   * registration for declared `asks`, otherwise when first sent), and answers a round ignored
   * because it did not ask for them. Default: one line on stderr.
   */
  onWarning?: WarningReporter;
  /** HTTP behaviour: sessions for handshake-era clients, DNS-rebinding protection, body limit. */
  http?: HttpOptions;
  /**
   * What tools do, by default, for a client that lacks what their asks need (no elicitation, no
   * URL mode, no sampling): `'error'` (the default), `'hide'`, `'arguments'` or a function. A
   * tool's own `askFallback` wins. `'hide'` and `'arguments'` act on the asks a tool declares
   * (`asks`); a tool that declares none keeps `'error'`.
   */
  askFallback?: AskFallback;
  /**
   * The ways a form ask may reach a person, in the order to try them (default
   * `['elicitation']`; `['elicitation', 'app']` turns the App on):
   *
   * - `'elicitation'`: the client's own form, when it declares elicitation and its host profile
   *   does not say it never draws it; where the client also declares app-rendered elicitation
   *   (SEP-3118, draft) and `'app'` is allowed, the form names Parley's App for the host to
   *   draw it with, the schema kept for the host's own form;
   * - `'app'`: for a tool call from a client that declares MCP Apps (`text/html;profile=mcp-app`),
   *   Parley's App shows the question; the answer comes back through the app-only tool
   *   `parley_answer`, checked and used once like any answer, and the same `ctx.ask` handler
   *   goes on.
   *
   * A client no route reaches gets the tool's `askFallback`.
   */
  askRoutes?: readonly AskRoute[];
  /**
   * Rows to add to (or, with the same `name` and `versions`, replace in) the table of what is
   * known about hosts beyond what they declare (`HOST_PROFILES`): one that never draws
   * elicitation gets the App or the fallback, one that cannot draw a kind of field gets it
   * adapted.
   */
  hostProfiles?: readonly HostProfile[];
  /** Tasks: where tools declared with `task` keep their state. */
  tasks?: TasksOptions;
  /**
   * OpenTelemetry spans and metrics for every request and flow. Default: through the global
   * API, so they are recorded once the application registers an SDK, and cost nothing until
   * then; `false` turns them off. No answer, argument, message or state is recorded unless
   * named in `record`.
   */
  telemetry?: TelemetryOptions | false;
}

/** A running server, as `run()` returns it. */
export interface RunningServer {
  /** The endpoint's URL (HTTP only), e.g. `http://127.0.0.1:3001/mcp`. */
  url?: string;
  /**
   * Stop serving. Over HTTP this is a graceful drain: readiness turns `503`, the listener stops
   * accepting once a load balancer has seen it, in-flight requests finish (answered with
   * `Connection: close`), idle connections close, handshake-era calls waiting on their client
   * get a JSON-RPC error at once, and whatever is left when `graceMs` is up is closed.
   */
  close(options?: CloseOptions): Promise<void>;
}

/** Serve over stdio: one process, both eras. */
export interface StdioRunOptions {
  transport: 'stdio';
}

/** Options of {@link ParleyServer.run}. */
export type RunOptions = StdioRunOptions | HttpRunOptions;
