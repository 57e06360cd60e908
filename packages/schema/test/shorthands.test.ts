import { describe, expect, test } from 'vitest';

import { compileResponseType } from '../src/index.ts';

// The option shorthands' refusals; what they compile to is in the table tests.

const compile = (value: unknown) => () => compileResponseType(value as never);

describe('option shorthands refuse', () => {
  test('empty option lists and maps', () => {
    expect(compile([])).toThrow(/^compileResponseType: the options list has no options/);
    expect(compile([[]])).toThrow(/the options list has no options/);
    expect(compile({})).toThrow(/an options object has no options/);
    expect(compile([{}])).toThrow(/an options object has no options/);
  });

  test('duplicate options', () => {
    expect(compile(['a', 'b', 'a'])).toThrow(/the options list lists the option 'a' twice/);
  });

  test('non-string options, and lists of lists beyond one level', () => {
    expect(compile(['a', 1])).toThrow(/an options list holds the number 1; options are strings/);
    expect(compile([['a'], ['b']])).toThrow(/an options list holds an array/);
    expect(compile([[1]])).toThrow(/holds the number 1/);
    expect(compile([42])).toThrow(/holds the number 42/);
  });

  test('numeric and mixed TypeScript enums, with the way forward', () => {
    enum Numeric {
      A,
      B,
    }
    enum Mixed {
      A = 'a',
      B = 1,
    }
    expect(compile(Numeric)).toThrow(/numeric enums cannot be elicited .* use a string enum/);
    expect(compile(Mixed)).toThrow(/numeric enums cannot be elicited/);
    expect(compile([Numeric])).toThrow(/numeric enums cannot be elicited/);
  });

  test('maps that are neither titled options nor a string enum', () => {
    expect(compile({ low: { label: 'Low' } })).toThrow(
      /the option 'low' is an object; titled options look like \{ low: \{ title: 'Shown to the user' \} \}/,
    );
    expect(compile({ low: { title: 'Low' }, high: 'high' })).toThrow(
      /the option 'high' is the string "high"/,
    );
  });
});

describe('option shorthands accept', () => {
  test('an enum with two names for one value as one option', () => {
    // What `enum Alias { Colour = 'colour', Color = 'colour', Size = 'size' }` compiles to.
    const Alias = { Colour: 'colour', Color: 'colour', Size: 'size' } as const;
    expect(compileResponseType(Alias).requestedSchema.properties['value']).toEqual({
      type: 'string',
      enum: ['colour', 'size'],
    });
  });
});
