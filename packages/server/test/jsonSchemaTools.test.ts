import { describe, expect, test } from 'vitest';

import { ParleyServer } from '../src/index.ts';
import { paramHeaderMismatch, paramHeadersOf } from '../src/handler/paramHeaders.ts';
import { rawModernCall } from './helpers/rawModern.ts';

/** Tools declared with a raw JSON Schema, and SEP-2243 `Mcp-Param-*` headers checked against the body. */

function server() {
  const mcp = new ParleyServer({ name: 'json', onWarning: () => {} });
  mcp.tool(
    'deploy',
    {
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          replicas: { type: 'integer', minimum: 1 },
        },
        required: ['region'],
        additionalProperties: false,
      },
    },
    (args) => `deploying to ${String(args.region)} x${String(args.replicas ?? 1)}`,
  );
  mcp.tool(
    'scale',
    {
      inputSchema: {
        type: 'object',
        properties: { replicas: { type: 'integer', minimum: 1 } },
        required: ['replicas'],
        additionalProperties: false,
      },
    },
    (args) => `scaled to ${String(args.replicas)}`,
  );
  return mcp;
}

describe('a raw JSON Schema as a tool’s input', () => {
  test('is listed exactly as written', async () => {
    const response = await server().fetch(
      new Request('http://parley.test/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      }),
    );
    const body = (await response.json()) as { result: { tools: { inputSchema: unknown }[] } };
    expect(body.result.tools[0]?.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        replicas: { type: 'integer', minimum: 1 },
      },
      required: ['region'],
      additionalProperties: false,
    });
  });

  test('validates arguments against it', async () => {
    const ok = await rawModernCall(server(), { name: 'scale', arguments: { replicas: 2 } });
    expect(ok.body.result).toMatchObject({ content: [{ text: 'scaled to 2' }] });
    for (const args of [{ replicas: 0 }, { replicas: 2, extra: true }, {}]) {
      // SEP-1303: argument errors are a tool result the model can read and correct.
      const bad = await rawModernCall(server(), { name: 'scale', arguments: args });
      expect(bad.body.result).toMatchObject({
        isError: true,
        content: [
          { type: 'text', text: expect.stringContaining('Invalid arguments for tool scale') },
        ],
      });
    }
  });
});

describe('Mcp-Param headers (SEP-2243)', () => {
  const declared = paramHeadersOf({
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      count: { type: 'integer', 'x-mcp-header': 'Count' },
      dry: { type: 'boolean', 'x-mcp-header': 'Dry' },
      tags: { type: 'array', 'x-mcp-header': 'Tags' },
    },
  });

  test('only string, integer and boolean properties count', () => {
    expect(declared.map((entry) => entry.header)).toEqual(['Region', 'Count', 'Dry']);
  });

  const headers = (entries: Record<string, string>) => new Headers(entries);

  test('agreeing headers pass, in literal and Base64 forms', () => {
    expect(
      paramHeaderMismatch(
        headers({
          'mcp-param-region': '=?base64?w7xiZXI=?=',
          'mcp-param-count': '3',
          'mcp-param-dry': 'true',
        }),
        { region: 'über', count: 3, dry: true },
        declared,
      ),
    ).toBeUndefined();
  });

  test('a value absent from the body needs no header', () => {
    expect(paramHeaderMismatch(headers({}), { region: null }, declared)).toBeUndefined();
  });

  test.each([
    ['a missing header', {}, { region: 'eu' }, /missing/],
    [
      'invalid Base64 padding',
      { 'mcp-param-region': '=?base64?ZXU?=' },
      { region: 'eu' },
      /not valid Base64/,
    ],
    [
      'non-alphabet characters',
      { 'mcp-param-region': '=?base64?ZX*1?=' },
      { region: 'eu' },
      /not valid Base64/,
    ],
    ['a different value', { 'mcp-param-region': 'us' }, { region: 'eu' }, /does not match/],
    ['a different integer', { 'mcp-param-count': '4' }, { count: 3 }, /does not match/],
  ])('%s is a mismatch', (_label, entries, args, reason) => {
    expect(paramHeaderMismatch(headers(entries as Record<string, string>), args, declared)).toMatch(
      reason,
    );
  });

  test('the endpoint refuses a mismatch with 400 and -32020', async () => {
    const response = await server().fetch(
      new Request('http://parley.test/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'deploy',
          'mcp-param-region': 'us',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: {
            name: 'deploy',
            arguments: { region: 'eu' },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32020 } });
  });
});
