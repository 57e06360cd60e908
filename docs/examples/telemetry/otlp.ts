// #region setup
import { metrics } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
} from '@opentelemetry/sdk-trace-node';

/**
 * Spans and metrics to an OTLP collector (Jaeger, Tempo, Honeycomb, an
 * OpenTelemetry Collector…) at `endpoint`, e.g. http://127.0.0.1:4318.
 * Call it before serving: Parley records to the global providers.
 */
export function startTelemetry(endpoint: string) {
  const tracerProvider = new NodeTracerProvider({
    spanProcessors: [
      new BatchSpanProcessor(
        new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }),
      ),
    ],
  });
  // Also registers a context manager, so a handler's own spans nest
  // under the round's and the client's context reaches the server.
  tracerProvider.register();

  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({
          url: `${endpoint}/v1/metrics`,
        }),
      }),
    ],
  });
  metrics.setGlobalMeterProvider(meterProvider);

  return {
    /** Send what is buffered and stop (on shutdown). */
    async shutdown() {
      await Promise.all([
        tracerProvider.shutdown(),
        meterProvider.shutdown(),
      ]);
    },
  };
}
// #endregion setup
