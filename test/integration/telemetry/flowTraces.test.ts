import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { DataPoint, Histogram, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client } from '@parley/client';
import { createMemorySingleUseStore } from '@parley/server';

import { accept, bookingRound } from '../bookingRound.ts';
import {
  bookAcross,
  bookingReplica,
  recorder,
  stringsOf,
  type Recorder,
  type Replica,
} from './harness.ts';

/**
 * OpenTelemetry across rounds, eras and replicas, with the real SDK exporting to memory and the
 * booking app served over HTTP on 127.0.0.1: a modern flow whose rounds land on two replicas is
 * one trace (tied by the context sealed in requestState, or by the client's own propagation),
 * a handshake `ctx.elicit` is a child span as long as the person took, the metrics count what
 * happened, and no answer's value appears anywhere unless the server named its field.
 */

const SERVER_SPAN = 'tools/call book_flight';
const run = promisify(execFile);

function serverSpans(spans: readonly ReadableSpan[]): ReadableSpan[] {
  return spans
    .filter((span) => span.name === SERVER_SPAN && span.attributes['parley.era'] !== undefined)
    .filter((span) => span.instrumentationScope.name === '@parley/server')
    .sort((a, b) => Number(a.attributes['parley.round']) - Number(b.attributes['parley.round']));
}

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

function metric(metrics: ResourceMetrics, name: string) {
  return metrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((m) => m.descriptor.name === name);
}

function histogramCount(metrics: ResourceMetrics, name: string): number {
  const points = (metric(metrics, name)?.dataPoints ?? []) as DataPoint<Histogram>[];
  return points.reduce((sum, point) => sum + point.value.count, 0);
}

function histogramSum(metrics: ResourceMetrics, name: string): number {
  const points = (metric(metrics, name)?.dataPoints ?? []) as DataPoint<Histogram>[];
  return points.reduce((sum, point) => sum + (point.value.sum ?? 0), 0);
}

function counterBy(
  metrics: ResourceMetrics,
  name: string,
  attribute?: string,
): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const point of (metric(metrics, name)?.dataPoints ?? []) as DataPoint<number>[]) {
    const key = attribute === undefined ? 'all' : String(point.attributes[attribute]);
    totals[key] = (totals[key] ?? 0) + point.value;
  }
  return totals;
}

describe('a modern flow across two replicas, each with its own SDK (no shared memory)', () => {
  let a: Recorder;
  let b: Recorder;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    a = recorder();
    b = recorder();
    const singleUse = createMemorySingleUseStore();
    for (const own of [a, b]) {
      replicas.push(
        await bookingReplica(
          { telemetry: { tracerProvider: own.tracerProvider, meterProvider: own.meterProvider } },
          // A replay window of 1 ms: a round sent again is refused, not answered again.
          { singleUse: { store: singleUse, replayWindowMs: 1 } },
        ),
      );
    }
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.running.close();
  });

  test('a client that sends no trace context: one trace, a span per request, each round under the one before', async () => {
    const replies = await bookAcross(
      replicas.map((replica) => replica.url),
      'Grace Hopper',
    );
    expect(replies.at(-1)?.result?.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^Booked BK-\d{4}: Grace Hopper/) },
    ]);
    const spans = serverSpans([...a.spans(), ...b.spans()]);
    // Four requests: the first, and one per answer; they alternated between the replicas.
    expect(spans.map((span) => span.attributes['parley.round'])).toEqual([1, 2, 3, 4]);
    expect(a.spans().filter((s) => s.name === SERVER_SPAN)).toHaveLength(2);
    expect(b.spans().filter((s) => s.name === SERVER_SPAN)).toHaveLength(2);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(new Set(spans.map((span) => span.attributes['parley.flow.id'])).size).toBe(1);
    expect(parentOf(spans[0]!)).toBeUndefined();
    for (let i = 1; i < spans.length; i++) {
      expect(parentOf(spans[i]!)).toBe(spans[i - 1]!.spanContext().spanId);
    }
    expect(spans.map((span) => span.attributes['parley.outcome'])).toEqual([
      'input_required',
      'input_required',
      'input_required',
      'result',
    ]);
    expect(spans[0]!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'book_flight',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
      'jsonrpc.protocol.version': '2.0',
      'network.transport': 'tcp',
      'parley.era': 'modern',
      'parley.asks': 1,
    });
    expect(spans[0]!.attributes['parley.state.bytes']).toBeGreaterThan(100);
    expect(spans[3]!.attributes).toMatchObject({
      'parley.answers.accepted': 1,
      'parley.reasks': 0,
    });

    const [ma, mb] = [await a.metrics(), await b.metrics()];
    const both = (fn: (m: ResourceMetrics) => number) => fn(ma) + fn(mb);
    expect(both((m) => histogramCount(m, 'parley.flow.duration'))).toBe(1);
    expect(both((m) => histogramSum(m, 'parley.flow.rounds'))).toBe(4);
    expect(both((m) => histogramCount(m, 'parley.answer.duration'))).toBe(3);
    expect(both((m) => histogramCount(m, 'parley.state.size'))).toBe(3);
    expect(both((m) => histogramCount(m, 'mcp.server.operation.duration'))).toBe(4);
    expect(both((m) => counterBy(m, 'parley.answers', 'parley.answer.action').accept ?? 0)).toBe(3);
  });

  test('a replayed final round is refused and counted; a bad answer is asked again and counted', async () => {
    const urls = replicas.map((replica) => replica.url);
    const first = await bookingRound(urls[0]!);
    const badDate = await bookingRound(urls[1]!, {
      inputResponses: { destination: accept({ destination: 'Oslo' }) },
      requestState: first.result!.requestState,
    });
    const reasked = await bookingRound(urls[0]!, {
      inputResponses: { date: accept({ date: 'next tuesday' }) },
      requestState: badDate.result!.requestState,
    });
    expect(reasked.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { date: {} },
    });
    await bookingRound(urls[1]!, {
      inputResponses: { date: accept({ date: '2026-12-30' }) },
      requestState: reasked.result!.requestState,
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const replayed = await bookingRound(urls[0]!, {
      inputResponses: { date: accept({ date: '2026-12-30' }) },
      requestState: reasked.result!.requestState,
    });
    expect(replayed.error).toMatchObject({ code: -32602 });
    const [ma, mb] = [await a.metrics(), await b.metrics()];
    const both = (fn: (m: ResourceMetrics) => number) => fn(ma) + fn(mb);
    expect(both((m) => counterBy(m, 'parley.reasks').all ?? 0)).toBe(1);
    expect(both((m) => counterBy(m, 'parley.single_use.refusals').all ?? 0)).toBe(1);
    const failed = serverSpans([...a.spans(), ...b.spans()]).filter(
      (span) => span.attributes['parley.outcome'] === 'error',
    );
    expect(failed.at(-1)?.attributes).toMatchObject({
      'rpc.response.status_code': '-32602',
      'error.type': '-32602',
    });
    // The status names the code only: the message could quote an answer.
    expect(failed.at(-1)?.status.message).toBe('JSON-RPC error -32602');
  });
});

describe('the Parley client and the server under one global SDK', () => {
  let rec: Recorder;
  const replicas: Replica[] = [];
  const contextManager = new AsyncLocalStorageContextManager();

  beforeAll(async () => {
    rec = recorder();
    context.setGlobalContextManager(contextManager.enable());
    trace.setGlobalTracerProvider(rec.tracerProvider);
    replicas.push(await bookingReplica(), await bookingReplica());
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.running.close();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  test('modern: the call span holds a span per round, each the parent of the round on the server, whichever replica served it', async () => {
    let turn = 0;
    const seenHeaders: (string | null)[] = [];
    const client = new Client(replicas[0]!.url, {
      mode: 'modern',
      // Each request to the next replica, as a balancer would send them.
      fetch: (input, init) => {
        const url = new URL(String(input));
        const to = new URL(replicas[turn++ % 2]!.url);
        url.port = to.port;
        seenHeaders.push(new Headers(init?.headers).get('traceparent'));
        return fetch(url, init);
      },
      elicitationHandler: (message, respond) => {
        if (message.startsWith('Where')) return respond({ destination: 'Lisbon' } as never);
        if (message.startsWith('When')) return respond({ date: '2026-12-27' } as never);
        return respond({ passenger: 'Ada Lovelace', confirm: true } as never);
      },
    });
    await client.connect();
    await client.callTool('book_flight');
    await client.close();

    const spans = rec.spans();
    const call = spans.find(
      (span) =>
        span.instrumentationScope.name === '@parley/client' &&
        span.attributes['parley.rounds'] !== undefined,
    );
    expect(call?.name).toBe(SERVER_SPAN);
    expect(call?.attributes).toMatchObject({ 'parley.rounds': 3, 'parley.outcome': 'result' });
    const legs = spans
      .filter(
        (span) =>
          span.instrumentationScope.name === '@parley/client' &&
          parentOf(span) === call!.spanContext().spanId,
      )
      .sort((x, y) => Number(x.attributes['parley.round']) - Number(y.attributes['parley.round']));
    expect(legs.map((leg) => leg.attributes['parley.round'])).toEqual([1, 2, 3, 4]);
    const served = serverSpans(spans);
    expect(served).toHaveLength(4);
    const traceIds = new Set([call!, ...legs, ...served].map((span) => span.spanContext().traceId));
    expect(traceIds.size).toBe(1);
    served.forEach((span, index) => {
      expect(parentOf(span)).toBe(legs[index]!.spanContext().spanId);
    });
    // The HTTP header carried the same context as `_meta` on each round's request.
    const legParents = legs.map((leg) => leg.spanContext().spanId);
    const headerParents = seenHeaders
      .filter((h): h is string => h !== null)
      .map((h) => h.split('-')[2]);
    for (const spanId of legParents) expect(headerParents).toContain(spanId);
  });

  test('handshake: each ctx.elicit is a child span of the call, as long as the person took to answer', async () => {
    const before = rec.spans().length;
    const client = new Client(replicas[0]!.url, {
      mode: 'handshake',
      elicitationHandler: async (message, respond) => {
        await new Promise((resolve) => setTimeout(resolve, 60));
        if (message.startsWith('Where')) return respond({ destination: 'Lima' } as never);
        if (message.startsWith('When')) return respond({ date: '2026-12-28' } as never);
        return respond({ passenger: 'Katherine Johnson', confirm: true } as never);
      },
    });
    await client.connect();
    await client.callTool('book_flight');
    await client.close();
    const spans = rec.spans().slice(before);
    const call = serverSpans(spans).find((span) => span.attributes['parley.era'] === 'handshake');
    expect(call?.attributes).toMatchObject({
      'parley.asks': 3,
      'parley.answers.accepted': 3,
      'parley.outcome': 'result',
      'mcp.protocol.version': '2025-11-25',
    });
    expect(typeof call?.attributes['mcp.session.id']).toBe('string');
    const waits = spans.filter(
      (span) =>
        span.instrumentationScope.name === '@parley/server' &&
        span.name === 'elicitation/create' &&
        parentOf(span) === call!.spanContext().spanId,
    );
    expect(waits).toHaveLength(3);
    for (const wait of waits) {
      const ms = wait.duration[0] * 1000 + wait.duration[1] / 1e6;
      expect(ms).toBeGreaterThanOrEqual(55);
      expect(wait.attributes['parley.answer.action']).toBe('accept');
    }
    // The client's call span is the server call's parent, and the client timed each answer too.
    const clientCall = spans.find(
      (span) =>
        span.instrumentationScope.name === '@parley/client' &&
        span.attributes['parley.rounds'] !== undefined,
    );
    expect(call!.spanContext().traceId).toBe(clientCall!.spanContext().traceId);
    const answered = spans.filter(
      (span) =>
        span.instrumentationScope.name === '@parley/client' && span.name === 'elicitation/create',
    );
    expect(answered).toHaveLength(3);
  });
});

describe('privacy', () => {
  const SECRET = 'Zaphod-Secret-7c1e';
  let rec: Recorder;
  let opted: Recorder;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    rec = recorder();
    opted = recorder();
    replicas.push(
      await bookingReplica({
        telemetry: { tracerProvider: rec.tracerProvider, meterProvider: rec.meterProvider },
      }),
      await bookingReplica({
        telemetry: {
          tracerProvider: opted.tracerProvider,
          meterProvider: opted.meterProvider,
          record: { answers: ['passenger'] },
        },
      }),
    );
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.running.close();
  });

  test("an answer's value appears in no span and no metric, unless the server named its field", async () => {
    // The secret as an answer, as a bad answer (asked again, quoted in the re-ask), and as an
    // argument the tool does not take.
    const replies = await bookAcross([replicas[0]!.url], SECRET);
    expect(JSON.stringify(replies.at(-1))).toContain(SECRET);
    await bookingRound(replicas[0]!.url, {
      arguments: { destination: SECRET },
    });
    const first = await bookingRound(replicas[0]!.url);
    await bookingRound(replicas[0]!.url, {
      inputResponses: { destination: accept({ destination: 'Rome' }) },
      requestState: first.result!.requestState,
    }).then((second) =>
      bookingRound(replicas[0]!.url, {
        inputResponses: { date: accept({ date: SECRET }) },
        requestState: second.result!.requestState,
      }),
    );
    const spans = rec.spans();
    expect(spans.length).toBeGreaterThan(5);
    expect(stringsOf(spans, await rec.metrics())).not.toContain(SECRET);
    expect(stringsOf(spans, await rec.metrics())).not.toContain('Reykjavik');

    await bookAcross([replicas[1]!.url], SECRET);
    const recorded = opted
      .spans()
      .find((span) => span.attributes['parley.answer.passenger'] !== undefined);
    expect(recorded?.attributes['parley.answer.passenger']).toBe(
      JSON.stringify({ passenger: SECRET, confirm: true }),
    );
    // Only the field it named: the destination was not recorded.
    expect(stringsOf(opted.spans(), await opted.metrics())).not.toContain('Reykjavik');
  });
});

describe('nothing registered', () => {
  test('no span, no metric, and the sealed state carries nothing for telemetry', async () => {
    const plain = await bookingReplica();
    const off = await bookingReplica({ telemetry: false });
    try {
      const [on, without] = await Promise.all([bookingRound(plain.url), bookingRound(off.url)]);
      const size = (reply: typeof on) => String(reply.result?.requestState).length;
      expect(size(on)).toBe(size(without));
      expect(trace.getSpan(context.active())).toBeUndefined();
    } finally {
      await plain.running.close();
      await off.running.close();
    }
  });

  test('the OpenTelemetry API is not even loaded (a fresh process serving a modern round)', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/untracedServer.ts', import.meta.url));
    const { stdout } = await run(process.execPath, [
      '--conditions=@parley/source',
      '--import',
      'tsx',
      fixture,
    ]);
    expect(JSON.parse(stdout)).toEqual({ resultType: 'input_required', loaded: [] });
  });

  test('an SDK registered once the server runs traces it from the next request on', async () => {
    const rec = recorder();
    const replica = await bookingReplica();
    try {
      const first = await bookingRound(replica.url);
      expect(rec.spans()).toHaveLength(0);
      trace.setGlobalTracerProvider(rec.tracerProvider);
      const second = await bookingRound(replica.url, {
        inputResponses: { destination: accept({ destination: 'Oslo' }) },
        requestState: first.result?.requestState,
      });
      expect(second.result?.resultType).toBe('input_required');
      const spans = serverSpans(rec.spans());
      expect(spans).toHaveLength(1);
      expect(spans[0]?.attributes).toMatchObject({
        'parley.round': 2,
        'parley.outcome': 'input_required',
      });
    } finally {
      trace.disable();
      await replica.running.close();
    }
  });

  test('a telemetry option with a key it does not have is refused, naming it', async () => {
    await expect(bookingReplica({ telemetry: { tracer: {} } as never })).rejects.toThrow(
      /options\.telemetry\.tracer is not an option; the options are tracerProvider, meterProvider, record/,
    );
  });
});
