import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, expect, test } from 'vitest';

import { Client } from '@parley/client';
import type { RunningServer } from '@parley/server';

import { startTelemetry } from '../telemetry/otlp.ts';
import { mcp } from '../telemetry/server.ts';

/**
 * The telemetry page's setup, run for real: the OTLP exporters send to a collector listening
 * on 127.0.0.1 (a plain HTTP server that keeps what it is sent), and a booking flow's spans
 * and metrics arrive there.
 */

const received: { path: string; body: Buffer }[] = [];
let collector: Server;
let endpoint: string;
let running: RunningServer;

beforeAll(async () => {
  collector = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        body: Buffer.concat(chunks),
      });
      response
        .writeHead(200, { 'content-type': 'application/x-protobuf' })
        .end();
    });
  });
  await new Promise<void>((resolve) =>
    collector.listen(0, '127.0.0.1', resolve),
  );
  endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  running = await mcp.run({ transport: 'http', port: 0 });
});

afterAll(async () => {
  await running?.close();
  trace.disable();
  metrics.disable();
  context.disable();
  propagation.disable();
  await new Promise((resolve) => collector.close(resolve));
});

test("the OTLP setup exports a modern flow's spans and metrics to the collector", async () => {
  const telemetry = startTelemetry(endpoint);
  await using client = new Client(running.url!, {
    mode: 'modern',
    elicitationHandler: (message) =>
      message.startsWith('Where')
        ? { destination: 'Oslo' }
        : { date: '2026-12-24' },
  });
  await client.connect();
  await client.callTool('book_flight');
  await telemetry.shutdown();

  const traces = received.filter((entry) => entry.path === '/v1/traces');
  const sent = Buffer.concat(traces.map((entry) => entry.body)).toString(
    'latin1',
  );
  expect(traces.length).toBeGreaterThan(0);
  // Span names and attributes are strings in the protobuf body.
  expect(sent).toContain('tools/call book_flight');
  expect(sent).toContain('parley.flow.id');
  expect(sent).toContain('@parley/client');
  expect(sent).not.toContain('Oslo');
  const exported = received.filter((entry) => entry.path === '/v1/metrics');
  expect(
    Buffer.concat(exported.map((entry) => entry.body)).toString('latin1'),
  ).toContain('parley.flow.duration');
});
