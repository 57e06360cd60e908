import { expect, test } from 'vitest';

import { canonicalJson } from '../src/index.ts';

test('keys are sorted at every depth, so key order does not change the text', () => {
  expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'x' } })).toBe(
    '{"a":{"c":"x","d":[1,{"x":1,"y":2}]},"b":1}',
  );
  expect(canonicalJson({ to: 'CDG', from: 'LHR' })).toBe(canonicalJson({ from: 'LHR', to: 'CDG' }));
  // UTF-16 code-unit order, as Array.prototype.sort gives: 'B' < 'a' < 'é'.
  expect(canonicalJson({ é: 1, a: 2, B: 3 })).toBe('{"B":3,"a":2,"é":1}');
});

test('a JSON value survives: parsing the text gives the value back', () => {
  const value = { s: 'quote " and \\ and \u2028 東京', n: [0, -1.5, 1e21], t: true, z: null };
  expect(JSON.parse(canonicalJson(value))).toEqual(value);
});

test('values without a JSON form are written the way JSON.stringify writes a value alone', () => {
  expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  expect(canonicalJson([undefined, Number.NaN, Infinity])).toBe('[null,null,null]');
  expect(canonicalJson(undefined)).toBe('null');
  expect(canonicalJson({ f: () => 1 })).toBe('{"f":null}');
  expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
});

test('nesting is bounded (1000 by default, or maxDepth), which also ends a cycle', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  expect(() => canonicalJson(cyclic)).toThrow(
    new RangeError('canonicalJson: nested deeper than 1000 (or cyclic).'),
  );
  const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);
  expect(canonicalJson(nested(100), { maxDepth: 100 })).toBe(
    `${'['.repeat(100)}1${']'.repeat(100)}`,
  );
  expect(() => canonicalJson(nested(101), { maxDepth: 100 })).toThrow(/nested deeper than 100/);
  expect(canonicalJson(nested(1000))).toHaveLength(2001);
});

test('objects whose text is known are written as known, at any depth', () => {
  const schema = { type: 'object', properties: {} };
  const known = new WeakMap<object, string>([[schema, '"as known"']]);
  expect(canonicalJson({ b: schema, a: [schema] }, { known })).toBe(
    '{"a":["as known"],"b":"as known"}',
  );
  expect(canonicalJson({ b: schema })).toBe('{"b":{"properties":{},"type":"object"}}');
});

test('an option it does not take is a TypeError that names it', () => {
  expect(() => canonicalJson({}, { maxdepth: 5 } as never)).toThrow(
    /^canonicalJson: options\.maxdepth is not an option; did you mean maxDepth\?/,
  );
});

test('an inherited or symbol-keyed option is refused too, the known keys left alone', () => {
  expect(() => canonicalJson({}, Object.create({ maxdepth: 5 }) as never)).toThrow(
    /^canonicalJson: options\.maxdepth is not an option \(and is inherited/,
  );
  // A known key, inherited: honoured by this read, dropped by a spread, so refused.
  expect(() => canonicalJson({}, Object.create({ maxDepth: 5 }) as never)).toThrow(
    /^canonicalJson: options\.maxDepth is inherited from the object's prototype/,
  );
  expect(() => canonicalJson({}, { maxDepth: 5, [Symbol('known')]: 1 } as never)).toThrow(
    /^canonicalJson: options\[Symbol\(known\)\] is not an option/,
  );
  expect(canonicalJson({ b: 1, a: 2 }, { maxDepth: 5 })).toBe('{"a":2,"b":1}');
});
