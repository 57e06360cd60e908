import { describe, expect, test } from 'vitest';

import { ParleyServer } from '../src/index.ts';
import { modernRequestInit, rawModernCall } from './helpers/rawModern.ts';

/** A tool's output schema given as a raw JSON Schema: listed as written, results checked as JSON. */

const outputSchema = {
  type: 'object',
  properties: { count: { type: 'integer', minimum: 0 } },
  required: ['count'],
  'x-origin': 'upstream',
} as const;

function server() {
  const mcp = new ParleyServer({ name: 'json-output', onWarning: () => {}, onError: () => {} });
  mcp.tool('count', { outputSchema }, () => ({
    content: [{ type: 'text' as const, text: '3' }],
    structuredContent: { count: 3 },
  }));
  mcp.tool('miscount', { outputSchema }, () => ({
    content: [{ type: 'text' as const, text: '-1' }],
    structuredContent: { count: -1 },
  }));
  return mcp;
}

describe('a raw JSON Schema as a tool’s output', () => {
  test('is listed exactly as written', async () => {
    const response = await server().fetch(
      new Request('http://parley.test/mcp', modernRequestInit('tools/list', {}, {})),
    );
    const body = (await response.json()) as { result: { tools: { name: string }[] } };
    expect(body.result.tools.find((tool) => tool.name === 'count')).toMatchObject({
      outputSchema,
    });
  });

  test('a result that fits it is sent; one that does not is an error naming the field', async () => {
    const mcp = server();
    const fits = await rawModernCall(mcp, { name: 'count' });
    expect(fits.body.result).toMatchObject({ structuredContent: { count: 3 } });
    const wrong = await rawModernCall(mcp, { name: 'miscount' });
    expect(wrong.body.error?.message).toMatch(
      /Tool miscount returned structured content that does not match its outputSchema: .*count must be >= 0/,
    );
  });
});
