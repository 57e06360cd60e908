import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { checkOptionKeys, optionKeys } from '@parley/core';

/**
 * `ParleyServer`'s `telemetry` option. By default the server traces and measures through the
 * global OpenTelemetry API: nothing is recorded (and nothing is spent) until an application
 * registers an SDK, and everything is once it does. `telemetry: false` turns it off whatever is
 * registered.
 */
export interface TelemetryOptions {
  /** Where spans go. Default: the global tracer provider (`trace.setGlobalTracerProvider`). */
  tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global meter provider (`metrics.setGlobalMeterProvider`). */
  meterProvider?: MeterProvider;
  /**
   * Values a span may hold. By default no answer, argument, message or state is ever recorded,
   * only counts, names and outcomes; name a field here to record its value on the round's span
   * (`parley.answer.<key>`, `parley.argument.<name>`, as JSON, cut to 256 characters).
   */
  record?: TelemetryRecordOptions;
}

/** The fields whose values a server opts in to recording (see {@link TelemetryOptions}). */
export interface TelemetryRecordOptions {
  /** Keys of answers (`ctx.ask(key, …)`, `inputResponses` keys) whose value is recorded. */
  answers?: readonly string[];
  /** Names of tool or prompt arguments whose value is recorded. */
  arguments?: readonly string[];
}

const TELEMETRY_OPTIONS = optionKeys<TelemetryOptions>()([
  'tracerProvider',
  'meterProvider',
  'record',
]);
const RECORD_OPTIONS = optionKeys<TelemetryRecordOptions>()(['answers', 'arguments']);

/** Refuse a `telemetry` option that is not `false`, nor one these keys and fields describe. */
export function checkTelemetryOptions(api: string, path: string, telemetry: unknown): void {
  if (telemetry === undefined || telemetry === false) return;
  if (typeof telemetry !== 'object' || telemetry === null || Array.isArray(telemetry)) {
    throw new TypeError(`${api}: ${path} must be an object or false.`);
  }
  checkOptionKeys(api, path, telemetry, TELEMETRY_OPTIONS);
  const { tracerProvider, meterProvider, record } = telemetry as TelemetryOptions;
  if (tracerProvider !== undefined && typeof tracerProvider?.getTracer !== 'function') {
    throw new TypeError(`${api}: ${path}.tracerProvider must be a TracerProvider (getTracer()).`);
  }
  if (meterProvider !== undefined && typeof meterProvider?.getMeter !== 'function') {
    throw new TypeError(`${api}: ${path}.meterProvider must be a MeterProvider (getMeter()).`);
  }
  checkOptionKeys(api, `${path}.record`, record, RECORD_OPTIONS);
  for (const field of ['answers', 'arguments'] as const) {
    const names = record?.[field];
    if (names === undefined) continue;
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
      throw new TypeError(`${api}: ${path}.record.${field} must be an array of field names.`);
    }
  }
}
