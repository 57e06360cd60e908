import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  NoopSpanProcessor,
  AlwaysOnSampler,
} from '@opentelemetry/sdk-trace-base';

/** A reader nobody collects from: the SDK aggregates every measurement, nothing leaves. */
class IdleReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/**
 * Register an OpenTelemetry SDK that records every span (sampled, ended, then dropped by the
 * processor) and every metric: what telemetry costs a server once it is on, without an exporter's
 * own cost.
 */
export function recordTelemetry(): void {
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({
      sampler: new AlwaysOnSampler(),
      spanProcessors: [new NoopSpanProcessor()],
    }),
  );
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new IdleReader()] }));
}
