import type { ApiTelemetry } from './apiTelemetry.ts';
import type { TelemetryOptions } from './options.ts';
import type { RequestInfo, RequestTrace } from './requestTrace.ts';

/**
 * A server's telemetry, on the OpenTelemetry API, which is loaded only once something could
 * record: importing the API costs about 20 ms of a cold start (dozens of modules), and most
 * servers never register an SDK. Until then, whether one is registered is read from where
 * every copy of the API keeps its registrations (the global below), without the API itself.
 *
 * An SDK registered before the server is built (the usual order) has the API loaded at once;
 * one registered later is seen on the next request, which waits for the load (once), so it is
 * traced like every request after it.
 */

/** Where the OpenTelemetry API (major version 1, as we depend on) keeps the global providers. */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

type ApiGlobal = { trace?: unknown; metrics?: unknown } | undefined;

/** True when an application registered a global tracer or meter provider. */
function registeredGlobally(): boolean {
  const registry = (globalThis as Record<symbol, ApiGlobal>)[API_GLOBAL];
  return registry !== undefined && (registry.trace !== undefined || registry.metrics !== undefined);
}

export class Telemetry {
  readonly #options: TelemetryOptions;
  /** The server was given its own providers: it always records through them. */
  readonly #given: boolean;
  #api: ApiTelemetry | undefined;
  #loading: Promise<ApiTelemetry | undefined> | undefined;
  /** The API could not be loaded: nothing is recorded (never a failed request). */
  #unavailable = false;

  constructor(options: TelemetryOptions = {}) {
    this.#options = options;
    this.#given = options.tracerProvider !== undefined || options.meterProvider !== undefined;
    if (this.#given || registeredGlobally()) void this.#load();
  }

  /**
   * Whether a request may be recorded: checked per request, so it costs a property read or two
   * while nothing is registered. `request()` then says for sure.
   */
  get mayRecord(): boolean {
    const api = this.#api;
    if (api !== undefined) return api.isRecording;
    return !this.#unavailable && (this.#given || registeredGlobally());
  }

  /**
   * A request's trace, or `undefined` when nothing records it; a promise of one only on the
   * requests that wait for the API to load.
   */
  request(info: RequestInfo): RequestTrace | undefined | Promise<RequestTrace | undefined> {
    const api = this.#api;
    if (api !== undefined) return api.request(info);
    return this.#load().then((loaded) => loaded?.request(info));
  }

  #load(): Promise<ApiTelemetry | undefined> {
    this.#loading ??= import('./apiTelemetry.ts').then(
      ({ ApiTelemetry }) => (this.#api = new ApiTelemetry(this.#options)),
      () => {
        this.#unavailable = true;
        return undefined;
      },
    );
    return this.#loading;
  }
}
