import { describe, expect, test } from 'vitest';

import { isScalarEnvelope, toToolCallResult } from '../src/toolResults.ts';

const envelope = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { result: { type: 'number' } },
  required: ['result'],
};

describe('isScalarEnvelope', () => {
  test('recognises the envelope an SDK server wraps a non-object output schema in', () => {
    expect(isScalarEnvelope(envelope)).toBe(true);
    expect(
      isScalarEnvelope({ ...envelope, properties: { result: { type: 'array', items: {} } } }),
    ).toBe(true);
    expect(
      isScalarEnvelope({ ...envelope, properties: { result: { anyOf: [{ type: 'string' }] } } }),
    ).toBe(true);
  });

  test('an object schema with more to it is the author’s own', () => {
    expect(isScalarEnvelope({ ...envelope, additionalProperties: false })).toBe(false);
    expect(isScalarEnvelope({ ...envelope, properties: { result: { type: 'object' } } })).toBe(
      false,
    );
    expect(isScalarEnvelope({ ...envelope, required: [] })).toBe(false);
    expect(
      isScalarEnvelope({
        ...envelope,
        properties: { result: { type: 'number' }, other: { type: 'string' } },
      }),
    ).toBe(false);
    expect(isScalarEnvelope(undefined)).toBe(false);
  });
});

describe('toToolCallResult', () => {
  const tool = { name: 'count', inputSchema: { type: 'object' as const }, outputSchema: envelope };

  test('handshake era: data unwraps the envelope the listed schema announces', () => {
    const result = toToolCallResult(
      { content: [{ type: 'text', text: '5' }], structuredContent: { result: 5 } },
      'handshake',
      tool as never,
    );
    expect(result).toEqual({
      content: [{ type: 'text', text: '5' }],
      structuredContent: { result: 5 },
      isError: false,
      data: 5,
    });
  });

  test('modern era: the value arrives as it is', () => {
    expect(
      toToolCallResult({ content: [], structuredContent: 5 }, 'modern', tool as never).data,
    ).toBe(5);
  });

  test('without the envelope (or without the listing) data is structuredContent', () => {
    const raw = { content: [], structuredContent: { result: 5 }, isError: true, _meta: { a: 1 } };
    expect(toToolCallResult(raw, 'handshake', undefined)).toEqual({
      content: [],
      structuredContent: { result: 5 },
      isError: true,
      data: { result: 5 },
      _meta: { a: 1 },
    });
    expect(toToolCallResult({ content: [] }, 'handshake', tool as never).data).toBeUndefined();
  });
});
