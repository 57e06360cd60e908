import {
  ProxyTracerProvider,
  createNoopMeter,
  metrics,
  trace,
  type MeterProvider,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';

import { instrumentsOf, type Instruments } from './instruments.ts';
import type { TelemetryOptions } from './options.ts';
import { RequestTrace, type RecordedFields, type RequestInfo } from './requestTrace.ts';

/**
 * A server's telemetry once the OpenTelemetry API is loaded (see `telemetry.ts`, which loads
 * this module only when something could record): where its spans and metrics go, found again
 * on every request, so an SDK registered after the server was built is used from its next
 * request on. With nothing registered a request gets no trace at all (`request()` is
 * `undefined`).
 */

const SCOPE = '@parley/server';
/** The API's no-op tracer provider: what a proxy delegates to until an SDK is registered. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const NOOP_METER = createNoopMeter();

/** What a global proxy provider hands spans to (the provider itself for any other). */
function effectiveProvider(provider: TracerProvider): TracerProvider {
  const getDelegate = (provider as { getDelegate?: () => TracerProvider }).getDelegate;
  return typeof getDelegate === 'function' ? getDelegate.call(provider) : provider;
}

function isNoopTracerProvider(provider: TracerProvider): boolean {
  // Another copy of the API has its own no-op class: known by name.
  return provider === NOOP_TRACER_PROVIDER || provider.constructor?.name === 'NoopTracerProvider';
}

export class ApiTelemetry {
  readonly #tracerProvider: TracerProvider | undefined;
  readonly #meterProvider: MeterProvider | undefined;
  /** The fields whose values the server opted in to recording. */
  readonly recorded: RecordedFields;
  #tracerSource: TracerProvider | undefined;
  #tracer: Tracer | undefined;
  #meterSource: MeterProvider | undefined;
  #instruments: Instruments | undefined;

  constructor(options: TelemetryOptions = {}) {
    this.#tracerProvider = options.tracerProvider;
    this.#meterProvider = options.meterProvider;
    this.recorded = {
      answers: new Set(options.record?.answers ?? []),
      arguments: new Set(options.record?.arguments ?? []),
    };
  }

  /** The tracer spans go to, or `undefined` while no tracer provider is registered. */
  get tracer(): Tracer | undefined {
    const provider = effectiveProvider(this.#tracerProvider ?? trace.getTracerProvider());
    if (provider !== this.#tracerSource) {
      this.#tracerSource = provider;
      this.#tracer = isNoopTracerProvider(provider) ? undefined : provider.getTracer(SCOPE);
    }
    return this.#tracer;
  }

  /** The instruments metrics go to, or `undefined` while no meter provider is registered. */
  get instruments(): Instruments | undefined {
    const provider = this.#meterProvider ?? metrics.getMeterProvider();
    if (provider !== this.#meterSource) {
      this.#meterSource = provider;
      const meter = provider.getMeter(SCOPE);
      this.#instruments = meter === NOOP_METER ? undefined : instrumentsOf(meter);
    }
    return this.#instruments;
  }

  /** Whether anything is registered to record spans or metrics (checked per request). */
  get isRecording(): boolean {
    return this.tracer !== undefined || this.instruments !== undefined;
  }

  /** A request's trace, or `undefined` when nothing is registered to record it. */
  request(info: RequestInfo): RequestTrace | undefined {
    const tracer = this.tracer;
    const instruments = this.instruments;
    if (tracer === undefined && instruments === undefined) return undefined;
    return new RequestTrace(tracer, instruments, this.recorded, info);
  }
}
