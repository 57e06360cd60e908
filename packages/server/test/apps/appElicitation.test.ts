import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';

import type { ElicitResult } from '@parley/core';
import {
  ParleyServer,
  elicitRequest,
  elicitUrlRequest,
  type RunningServer,
} from '../../src/index.ts';
import { modernRequestInit } from '../helpers/rawModern.ts';

/**
 * App-rendered elicitation (SEP-3118, draft): a host that declares both form elicitation and the
 * UI extension with `elicitation: {}` is asked natively, and each form names Parley's App
 * (`_meta.ui.resourceUri`) for the host to draw it with, the schema kept whole for a host that
 * draws its own. Over real HTTP on 127.0.0.1, in both eras: the SDK v2 client in the handshake
 * era (what `elicitation/create` carried), raw 2026-07-28 POSTs in the modern era (what the
 * `InputRequiredResult` carried, and the retry with the answer).
 */

const UI_ID = 'io.modelcontextprotocol/ui';
const MIME_TYPES = ['text/html;profile=mcp-app'];
const APP_URI = 'ui://parley/ask';
/** Form elicitation and SEP-3118: the host draws forms with the App the ask names. */
const SEP_3118 = {
  elicitation: { form: {} },
  extensions: { [UI_ID]: { mimeTypes: MIME_TYPES, elicitation: {} } },
};
/** Form elicitation and MCP Apps, but no app-rendered elicitation. */
const APPS_ONLY = { elicitation: { form: {} }, extensions: { [UI_ID]: { mimeTypes: MIME_TYPES } } };

type Capabilities = Record<string, unknown>;
type Routes = ('elicitation' | 'app')[] | undefined;
type Era = 'handshake' | 'modern';

const askTrip = elicitRequest(
  'Where to?',
  z.object({
    city: z.string().min(2).meta({ title: 'City' }),
    extras: z.array(z.enum(['quiet', 'view'])).meta({ title: 'Extras' }),
    nights: z.number().int().min(1),
  }),
);
const askPayment = elicitUrlRequest('Pay for the trip', 'https://pay.example/trip/1');
const ACCEPTED_TRIP: ElicitResult = {
  action: 'accept',
  content: { city: 'Oslo', extras: ['view'], nights: 2 },
};

let running: RunningServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await running?.close({ graceMs: 0 });
  running = undefined;
});

async function serve(routes: Routes): Promise<string> {
  const mcp = new ParleyServer({
    name: 'trips',
    ...(routes !== undefined ? { askRoutes: routes } : {}),
    onWarning: () => {},
    onError: () => {},
  });
  mcp.tool('plan_trip', async (_args, ctx) => {
    const trip = await ctx.ask('trip', askTrip);
    if (trip.action !== 'accept') return `No trip (${trip.action}).`;
    const { city, extras, nights } = trip.data;
    return `${nights} nights in ${city} (${extras.join(', ')}).`;
  });
  mcp.tool('pay', async (_args, ctx) => {
    const payment = await ctx.ask('payment', askPayment);
    return `Payment: ${payment.action}.`;
  });
  running = await mcp.run({ transport: 'http', port: 0, host: '127.0.0.1' });
  return running.url as string;
}

/** A raw 2026-07-28 POST over the socket; the JSON-RPC result, from JSON or the last SSE event. */
async function modernPost(
  url: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Capabilities,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, modernRequestInit(method, params, capabilities));
  expect(response.status).toBe(200);
  const text = await response.text();
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .at(-1)!
        .slice(6);
  const body = JSON.parse(json) as { result?: Record<string, unknown>; error?: unknown };
  expect(body.error).toBeUndefined();
  return body.result!;
}

const textOf = (result: Record<string, unknown>) =>
  (result.content as { type: string; text: string }[])[0]?.text;

interface Asked {
  /** The params of the one ask the call made, as they reached the client. */
  params: Record<string, unknown>;
  /** The key it was asked under (modern era: the `inputRequests` key). */
  key?: string;
  /** The call's result text once the answer came back. */
  text: string | undefined;
}

/** Call `tool` as a client declaring `capabilities` in `era`, answering its one ask. */
async function callAnswering(
  era: Era,
  url: string,
  capabilities: Capabilities,
  tool: string,
  answer: ElicitResult,
): Promise<Asked> {
  if (era === 'modern') {
    const call = { name: tool, arguments: {} };
    const first = await modernPost(url, 'tools/call', call, capabilities);
    expect(first.resultType).toBe('input_required');
    const requests = first.inputRequests as Record<string, { method: string; params: never }>;
    const keys = Object.keys(requests);
    expect(keys).toHaveLength(1);
    const key = keys[0]!;
    expect(requests[key]!.method).toBe('elicitation/create');
    const done = await modernPost(
      url,
      'tools/call',
      { ...call, inputResponses: { [key]: answer }, requestState: first.requestState },
      capabilities,
    );
    return { params: requests[key]!.params, key, text: textOf(done) };
  }
  const asked: Record<string, unknown>[] = [];
  client = new Client(
    { name: 'sep-3118-host', version: '1.0.0' },
    { capabilities: capabilities as never },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params as Record<string, unknown>);
    return answer as never;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const result = await client.callTool({ name: tool, arguments: {} });
  expect(asked).toHaveLength(1);
  return { params: asked[0]!, text: textOf(result as Record<string, unknown>) };
}

/** The server's capabilities as a client in `era` reads them (initialize or server/discover). */
async function serverCapabilities(era: Era, url: string): Promise<Record<string, unknown>> {
  if (era === 'modern') {
    const discovered = await modernPost(url, 'server/discover', {}, SEP_3118);
    return discovered.capabilities as Record<string, unknown>;
  }
  client = new Client({ name: 'sep-3118-host', version: '1.0.0' }, { capabilities: SEP_3118 });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client.getServerCapabilities() as Record<string, unknown>;
}

const uiOf = (params: Record<string, unknown>) =>
  (params._meta as Record<string, unknown> | undefined)?.ui;

describe.each<Era>(['handshake', 'modern'])('SEP-3118, %s era', (era) => {
  test('a form names the App, with the whole schema kept, and the answer completes the call', async () => {
    const url = await serve(['elicitation', 'app']);
    const asked = await callAnswering(era, url, SEP_3118, 'plan_trip', ACCEPTED_TRIP);
    expect(uiOf(asked.params)).toEqual({ resourceUri: APP_URI });
    expect(asked.params).toMatchObject({ mode: 'form', message: 'Where to?' });
    expect(asked.params.requestedSchema).toEqual(askTrip.params.requestedSchema);
    // The schema is the handler's, as written: nothing adapted for a host that draws it all.
    expect(asked.params.requestedSchema).toMatchObject({
      properties: { extras: { type: 'array' }, nights: { type: 'integer' } },
    });
    if (era === 'modern') expect(asked.key).toBe('trip');
    expect(asked.text).toBe('2 nights in Oslo (view).');
  });

  test('the server declares the UI extension with app-rendered elicitation', async () => {
    const capabilities = await serverCapabilities(era, await serve(['elicitation', 'app']));
    expect(capabilities.extensions).toEqual({ [UI_ID]: { elicitation: {} } });
  });

  test('a host that draws Apps but declares no app-rendered elicitation gets its own form', async () => {
    const url = await serve(['elicitation', 'app']);
    const asked = await callAnswering(era, url, APPS_ONLY, 'plan_trip', ACCEPTED_TRIP);
    expect(uiOf(asked.params)).toBeUndefined();
    expect(asked.params.requestedSchema).toEqual(askTrip.params.requestedSchema);
    expect(asked.text).toBe('2 nights in Oslo (view).');
  });

  test('a server without the App route never names it, nor declares the extension', async () => {
    const url = await serve(['elicitation']);
    const asked = await callAnswering(era, url, SEP_3118, 'plan_trip', ACCEPTED_TRIP);
    expect(uiOf(asked.params)).toBeUndefined();
    expect(asked.params.requestedSchema).toEqual(askTrip.params.requestedSchema);
    expect(asked.text).toBe('2 nights in Oslo (view).');
    await client?.close();
    client = undefined;
    const capabilities = await serverCapabilities(era, url);
    expect(capabilities.extensions).toBeUndefined();
    expect(capabilities.tools).toBeDefined();
  });

  test('the default askRoutes are the same: no App named, no extension declared', async () => {
    const url = await serve(undefined);
    const asked = await callAnswering(era, url, SEP_3118, 'plan_trip', ACCEPTED_TRIP);
    expect(uiOf(asked.params)).toBeUndefined();
    await client?.close();
    client = undefined;
    expect((await serverCapabilities(era, url)).extensions).toBeUndefined();
  });

  test('a URL-mode ask never names the App', async () => {
    const url = await serve(['elicitation', 'app']);
    const capabilities = { ...SEP_3118, elicitation: { form: {}, url: {} } };
    const asked = await callAnswering(era, url, capabilities, 'pay', { action: 'accept' });
    expect(asked.params).toMatchObject({
      mode: 'url',
      message: 'Pay for the trip',
      url: 'https://pay.example/trip/1',
    });
    expect(uiOf(asked.params)).toBeUndefined();
    expect(asked.params).not.toHaveProperty('requestedSchema');
    expect(asked.text).toBe('Payment: accept.');
  });
});
