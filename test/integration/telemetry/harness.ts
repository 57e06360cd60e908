import type { AddressInfo } from 'node:net';

import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';

import { createBookingServer } from '../../../apps/booking/src/bookingServer.ts';
import { createMemoryBookingStore } from '../../../apps/booking/src/bookingStore.ts';
import type { ParleyServerOptions, RunningServer } from '@parley/server';

import { accept, bookingRound, type Reply } from '../bookingRound.ts';

/**
 * What the telemetry tests share: an in-memory OpenTelemetry SDK (the real
 * `@opentelemetry/sdk-trace-base` and `sdk-metrics`, exporting to memory), booking replicas
 * over HTTP on 127.0.0.1 that share a key ring, and a raw modern-era round on the wire.
 */

/** A reader the test collects from when it wants, instead of on a timer. */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface Recorder {
  tracerProvider: BasicTracerProvider;
  meterProvider: MeterProvider;
  spans(): ReadableSpan[];
  metrics(): Promise<ResourceMetrics>;
}

export function recorder(): Recorder {
  const exporter = new InMemorySpanExporter();
  const reader = new CollectingReader();
  return {
    tracerProvider: new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }),
    meterProvider: new MeterProvider({ readers: [reader] }),
    spans: () => exporter.getFinishedSpans(),
    metrics: async () => (await reader.collect()).resourceMetrics,
  };
}

const KEYS = ['telemetry-test-key-000000000000000000', 'telemetry-older-key-1111111111111111'];

export interface Replica {
  url: string;
  running: RunningServer;
}

/** A booking replica on a free port of 127.0.0.1, sharing the test's key ring. */
export async function bookingReplica(
  serverOptions: Partial<ParleyServerOptions> = {},
  extra: Parameters<typeof createBookingServer>[0] = {},
): Promise<Replica> {
  const server = createBookingServer({
    store: createMemoryBookingStore(),
    keys: KEYS,
    log: () => {},
    serverOptions,
    ...extra,
  });
  const running = await server.run({ transport: 'http', port: 0, host: '127.0.0.1' });
  return { url: running.url!, running };
}

export function portOf(address: AddressInfo | string | null): number {
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/** The answers of one booking, in the order the flow asks for them. */
export function bookingAnswers(passenger: string): Record<string, unknown>[] {
  return [
    { destination: accept({ destination: 'Reykjavik' }) },
    { date: accept({ date: '2026-12-24' }) },
    { passenger: accept({ passenger, confirm: true }) },
  ];
}

/**
 * A whole booking flow, each request to the next of `urls` in turn: the first request, then one
 * per answer, each carrying the previous round's `requestState`.
 */
export async function bookAcross(urls: string[], passenger: string): Promise<Reply[]> {
  const replies: Reply[] = [await bookingRound(urls[0]!)];
  for (const [index, answers] of bookingAnswers(passenger).entries()) {
    const previous = replies.at(-1)!.result!;
    replies.push(
      await bookingRound(urls[(index + 1) % urls.length]!, {
        inputResponses: answers,
        requestState: previous.requestState,
      }),
    );
  }
  return replies;
}

/** Every string a span or a metric holds: names, attributes, events, links, status. */
export function stringsOf(spans: readonly ReadableSpan[], metrics: ResourceMetrics): string {
  return JSON.stringify({
    spans: spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      links: span.links,
      status: span.status,
    })),
    metrics: metrics.scopeMetrics,
  });
}
