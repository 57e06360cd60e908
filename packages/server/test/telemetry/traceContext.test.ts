import { describe, expect, test } from 'vitest';

import {
  formatTraceparent,
  incomingContext,
  parseTraceparent,
} from '../../src/telemetry/traceContext.ts';

/**
 * W3C trace context as Parley reads it from a request (`_meta`, the HTTP header) and from a
 * flow's sealed state: a valid value round-trips, and anything else is no context at all,
 * never an error (a client's bad header must not fail its request).
 */

const VALID = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('parseTraceparent', () => {
  test('a valid traceparent round-trips, remote, with its sampled flag', () => {
    const context = parseTraceparent(VALID, 'vendor=abc');
    expect(context).toMatchObject({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
      isRemote: true,
    });
    expect(context?.traceState?.get('vendor')).toBe('abc');
    expect(formatTraceparent(context!)).toBe(VALID);
    expect(parseTraceparent(VALID.replace(/-01$/, '-00'))?.traceFlags).toBe(0);
  });

  test.each([
    ['not a string', 42],
    ['an object', { traceparent: VALID }],
    ['empty', ''],
    ['version ff', VALID.replace(/^00/, 'ff')],
    ['an all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['an all-zero span id', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['upper-case hex', VALID.toUpperCase()],
    ['a short trace id', '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01'],
    ['version 00 with a fifth field', `${VALID}-extra`],
    ['too long', `01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-${'x'.repeat(600)}`],
  ])('%s is no context', (_name, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  test('a later version with more fields is read by its first four', () => {
    expect(parseTraceparent(`01-${VALID.slice(3)}-more`)?.spanId).toBe('00f067aa0ba902b7');
  });
});

describe('incomingContext', () => {
  const headers = (values: Record<string, string>) => ({
    get: (name: string) => values[name] ?? null,
  });
  const other = '00-11111111111111111111111111111111-2222222222222222-01';

  test("the message's _meta wins over the HTTP header", () => {
    const context = incomingContext({ traceparent: VALID }, headers({ traceparent: other }));
    expect(context?.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  test('a bad _meta value falls back to the header; neither is no context', () => {
    expect(incomingContext({ traceparent: 'junk' }, headers({ traceparent: other }))?.spanId).toBe(
      '2222222222222222',
    );
    expect(incomingContext(undefined, headers({}))).toBeUndefined();
    expect(incomingContext(['not', 'meta'], undefined)).toBeUndefined();
  });
});
