import { expect, test } from 'vitest';

import { canonicalJson } from '../src/canonicalJson.ts';

test('keys are sorted at every depth, so key order does not change the text', () => {
  expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'x' } })).toBe(
    '{"a":{"c":"x","d":[1,{"x":1,"y":2}]},"b":1}',
  );
  expect(canonicalJson({ to: 'CDG', from: 'LHR' })).toBe(canonicalJson({ from: 'LHR', to: 'CDG' }));
});

test('values without a JSON form are written the way JSON.stringify writes them', () => {
  expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  expect(canonicalJson([undefined, Number.NaN, Infinity])).toBe('[null,null,null]');
  expect(canonicalJson(undefined)).toBe('null');
});

test('nesting is bounded (arguments come from the client), which also ends a cycle', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  expect(() => canonicalJson(cyclic)).toThrow(RangeError);
});
