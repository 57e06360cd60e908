import { describe, expect, test } from 'vitest';

import { InputRequiredToolResult, ToolResult, inputRequired } from '../src/index.ts';

describe('ToolResult', () => {
  test('defaults to empty, successful content', () => {
    const result = new ToolResult();
    expect(result.content).toEqual([]);
    expect(result.isError).toBe(false);
    expect(result.toJSON()).toEqual({ content: [] });
  });

  test('round-trips every field to the wire form', () => {
    const result = new ToolResult({
      content: [{ type: 'text', text: 'Booked' }],
      structuredContent: { booking: 'B-1' },
      isError: true,
      _meta: { trace: 't' },
    });
    expect(result.toJSON()).toEqual({
      content: [{ type: 'text', text: 'Booked' }],
      structuredContent: { booking: 'B-1' },
      isError: true,
      _meta: { trace: 't' },
    });
  });

  test('a final result is not an ask', () => {
    expect(new ToolResult()).not.toBeInstanceOf(InputRequiredToolResult);
  });
});

describe('InputRequiredToolResult', () => {
  const ask = inputRequired({
    inputRequests: { ok: { method: 'roots/list' }, more: { method: 'roots/list' } },
    requestState: 'sealed',
  });

  test('is a ToolResult and is told apart by instanceof', () => {
    const result = new InputRequiredToolResult(ask);
    expect(result).toBeInstanceOf(ToolResult);
    expect(result).toBeInstanceOf(InputRequiredToolResult);
  });

  test('carries the requests, the state and the asked keys', () => {
    const result = new InputRequiredToolResult(ask);
    expect(result.inputRequests).toBe(ask.inputRequests);
    expect(result.requestState).toBe('sealed');
    expect(result.askedKeys).toEqual(['ok', 'more']);
    expect(result.content).toEqual([]);
  });

  test('serialises to the input_required wire result', () => {
    expect(new InputRequiredToolResult(ask).toJSON()).toEqual(ask);
    expect(JSON.parse(JSON.stringify(new InputRequiredToolResult(ask)))).toEqual(ask);
  });

  test('a state-only ask has no asked keys', () => {
    const result = new InputRequiredToolResult(inputRequired({ requestState: 'x' }));
    expect(result.askedKeys).toEqual([]);
    expect(result.toJSON()).toEqual({ resultType: 'input_required', requestState: 'x' });
  });
});
