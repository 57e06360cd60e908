import { expect, test } from 'vitest';

import { ASK_KEY_META, askKeyOf } from '../src/index.ts';

test('the key is Parley-namespaced, outside the prefixes MCP reserves', () => {
  expect(ASK_KEY_META).toBe('dev.parley/askKey');
  const prefix = ASK_KEY_META.slice(0, ASK_KEY_META.indexOf('/'));
  expect(prefix.split('.')).not.toContain('modelcontextprotocol');
  expect(prefix.split('.')).not.toContain('mcp');
});

test('askKeyOf reads the key a pushed request carries', () => {
  expect(askKeyOf({ message: 'Which currency?', _meta: { [ASK_KEY_META]: 'currency' } })).toBe(
    'currency',
  );
  expect(askKeyOf({ _meta: { [ASK_KEY_META]: 'roots', other: 1 } })).toBe('roots');
});

test.each([
  ['no params', undefined],
  ['no _meta', { message: 'Hi' }],
  ['another key only', { _meta: { 'dev.parley/adapted': ['tags'] } }],
  ['not a string', { _meta: { [ASK_KEY_META]: 3 } }],
  ['an empty string', { _meta: { [ASK_KEY_META]: '' } }],
  ['_meta not an object', { _meta: 'currency' }],
])('askKeyOf is undefined for %s', (_case, params) => {
  expect(askKeyOf(params)).toBeUndefined();
});
