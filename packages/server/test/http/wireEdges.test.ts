import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { ParleyServer, type RunningServer } from '../../src/index.ts';

/**
 * Two wire answers that JSON and HTTP leave easy to get wrong: an id no client could match when
 * echoed (a number past 2^53, or one JSON cannot even represent, such as 1e400, which parses as
 * Infinity) is an invalid request, and a POST whose Accept allows neither answer a POST can get
 * (application/json, text/event-stream) is 406, on both eras, before anything runs.
 */

const ENVELOPE =
  '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';
const INITIALIZE =
  '{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wire","version":"1"}}';

let running: RunningServer;
let calls = 0;

beforeAll(async () => {
  const mcp = new ParleyServer({ name: 'wire', onWarning: () => {} });
  mcp.tool('count', () => `call ${++calls}`);
  running = await mcp.run({ transport: 'http', port: 0 });
});
afterAll(() => running.close());

async function post(body: string, headers: Record<string, string>) {
  const response = await fetch(running.url!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const modernHeaders = (accept?: string) => ({
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'count',
  ...(accept === undefined ? {} : { accept }),
});
const modernCall = (id: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"count","arguments":{},${ENVELOPE}}}`;
const initialize = (id: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":${INITIALIZE}}`;

describe('an id that cannot be echoed as sent is -32600', () => {
  test.each(['1e400', '-1e400', '9007199254740993', '1.5'])('modern era, id %s', async (id) => {
    const before = calls;
    const { status, body } = await post(modernCall(id), modernHeaders('application/json'));
    expect(status).toBe(400);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(calls).toBe(before);
  });

  test.each(['1e400', '9007199254740993'])('handshake era initialize, id %s', async (id) => {
    const { status, body } = await post(initialize(id), {
      accept: 'application/json, text/event-stream',
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ id: null, error: { code: -32600 } });
  });

  test('the largest safe integer and a string are ids, echoed as sent', async () => {
    for (const id of ['9007199254740991', '"call-1"']) {
      const { status, body } = await post(modernCall(id), modernHeaders('application/json'));
      expect(status).toBe(200);
      expect(body.id).toEqual(JSON.parse(id));
    }
  });
});

describe('a POST whose Accept allows neither JSON nor an event stream is 406', () => {
  test.each(['text/html', 'application/json;q=0, text/html', 'image/*', 'text/event-stream;q=0'])(
    'modern era, Accept: %s',
    async (accept) => {
      const before = calls;
      const { status, body } = await post(modernCall('1'), modernHeaders(accept));
      expect(status).toBe(406);
      expect(body).toMatchObject({
        error: { code: -32600, message: expect.stringMatching(/^Not Acceptable/) },
      });
      expect(calls).toBe(before);
    },
  );

  test('handshake era initialize, Accept: text/html', async () => {
    const { status } = await post(initialize('1'), { accept: 'text/html' });
    expect(status).toBe(406);
  });

  test.each([
    undefined,
    '*/*',
    'application/*',
    'text/*;q=0.5',
    'application/json',
    'text/event-stream',
  ])('Accept %s allows an answer', async (accept) => {
    const { status, body } = await post(modernCall('7'), modernHeaders(accept));
    expect(status).toBe(200);
    expect(body.id).toBe(7);
  });
});
