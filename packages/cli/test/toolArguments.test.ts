import { describe, expect, test } from 'vitest';

import { promptArguments, refuseUndeclared, toolArguments } from '../src/toolArguments.ts';
import { UsageError } from '../src/usage.ts';

const schema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    amount: { type: 'number' },
    count: { type: 'integer' },
    urgent: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
  },
};

describe('key=value arguments are typed by the tool’s schema', () => {
  test('strings stay strings, numbers and booleans are read, arrays and objects are JSON', () => {
    expect(
      toolArguments(
        {
          json: {},
          pairs: [
            ['id', '0001'],
            ['amount', '12.5'],
            ['count', '3'],
            ['urgent', 'true'],
            ['tags', '["a","b"]'],
          ],
        },
        schema,
      ),
    ).toEqual({ id: '0001', amount: 12.5, count: 3, urgent: true, tags: ['a', 'b'] });
  });

  test('without a schema for the key, JSON when it reads as JSON, the text otherwise', () => {
    expect(
      toolArguments(
        {
          json: {},
          pairs: [
            ['n', '3'],
            ['s', 'hello'],
            ['b', 'false'],
          ],
        },
        undefined,
      ),
    ).toEqual({
      n: 3,
      s: 'hello',
      b: false,
    });
  });

  test('key=value adds to --args and wins over it', () => {
    expect(toolArguments({ json: { id: 'a', other: 1 }, pairs: [['id', 'b']] }, schema)).toEqual({
      id: 'b',
      other: 1,
    });
  });

  test('a value that does not fit its type is a usage error', () => {
    expect(() => toolArguments({ json: {}, pairs: [['amount', 'lots']] }, schema)).toThrow(
      UsageError,
    );
    expect(() => toolArguments({ json: {}, pairs: [['urgent', 'yes']] }, schema)).toThrow(
      'urgent must be true or false',
    );
    expect(() => toolArguments({ json: {}, pairs: [['tags', 'a,b']] }, schema)).toThrow(
      'tags must be JSON',
    );
  });
});

describe('prompt arguments', () => {
  test('are strings', () => {
    expect(promptArguments({ json: { quarter: 'Q1' }, pairs: [['style', 'short']] })).toEqual({
      quarter: 'Q1',
      style: 'short',
    });
    expect(() => promptArguments({ json: { n: 1 }, pairs: [] })).toThrow(UsageError);
  });
});

describe('arguments the tool does not declare', () => {
  const greet = {
    type: 'object',
    properties: { name: { type: 'string' }, greeting: { type: 'string' } },
    required: ['name'],
  };

  test('are refused, naming them and the tool’s arguments', () => {
    expect(() => refuseUndeclared('greet', { name: 'Ada', foo: 'bar' }, greet)).toThrow(
      new UsageError(
        'greet has no argument foo; its arguments are: name (string, required), greeting (string).',
      ),
    );
    expect(() => refuseUndeclared('greet', { name: 'Ada', greeting: 'Hi' }, greet)).not.toThrow();
  });

  test('are let through when the schema allows others, or declares no properties', () => {
    for (const allows of [true, { type: 'string' }]) {
      expect(() =>
        refuseUndeclared('greet', { foo: 'bar' }, { ...greet, additionalProperties: allows }),
      ).not.toThrow();
    }
    expect(() =>
      refuseUndeclared('greet', { foo: 1 }, { ...greet, patternProperties: { '^x-': {} } }),
    ).not.toThrow();
    expect(() => refuseUndeclared('greet', { foo: 1 }, { type: 'object' })).not.toThrow();
    expect(() => refuseUndeclared('greet', { foo: 1 }, undefined)).not.toThrow();
    expect(() =>
      refuseUndeclared('greet', { foo: 1 }, { ...greet, additionalProperties: false }),
    ).toThrow('greet has no argument foo;');
  });
});
