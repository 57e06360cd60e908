import { describe, expect, test } from 'vitest';

import { checkOptionKeys, optionKeys } from '../src/index.ts';

interface Options {
  mimeType?: string;
  maxReasks?: number;
  name?: string;
}

const KEYS = optionKeys<Options>()(['mimeType', 'maxReasks', 'name'], {
  mimetypes: 'use mimeType: one type per resource',
});

const check = (options: unknown) => () => checkOptionKeys('api', 'options', options, KEYS);

/** The `TypeError` `options` is refused with (fails the test when it is accepted). */
function refusal(options: unknown): string {
  try {
    check(options)();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${String(options)}`);
}

describe('checkOptionKeys', () => {
  test('known own keys pass; what is not an object is left to the caller', () => {
    expect(check({ mimeType: 'text/plain', name: 'n' })).not.toThrow();
    expect(check(Object.assign(Object.create(null), { name: 'n' }))).not.toThrow();
    for (const value of [undefined, null, 3, 'text', [1, 2]]) expect(check(value)).not.toThrow();
  });

  test('an own key it does not know names the nearest option, the retired ones what to use', () => {
    expect(refusal({ mimetype: 'x' })).toBe(
      'api: options.mimetype is not an option; did you mean mimeType? (the options are mimeType, maxReasks, name).',
    );
    expect(refusal({ mimetypes: 'x' })).toBe(
      'api: options.mimetypes is not an option; use mimeType: one type per resource.',
    );
    expect(refusal({ colour: 'blue' })).toBe(
      'api: options.colour is not an option; the options are mimeType, maxReasks, name.',
    );
  });

  test('a symbol key is refused, named, even when no string key is wrong', () => {
    expect(refusal({ name: 'n', [Symbol('mimeType')]: 'x' })).toBe(
      'api: options[Symbol(mimeType)] is not an option; options are named by strings (the options are mimeType, maxReasks, name).',
    );
  });

  test('a non-enumerable symbol (a brand a library attaches) is no option, and is let be', () => {
    const branded = { name: 'n' };
    Object.defineProperty(branded, Symbol.for('brand'), { value: true, enumerable: false });
    expect(check(branded)).not.toThrow();
  });

  test('an inherited key it does not know is refused, naming the nearest option', () => {
    expect(refusal(Object.create({ mimetype: 'text/plain' }))).toBe(
      "api: options.mimetype is not an option (and is inherited from the object's prototype); did you mean mimeType? (the options are mimeType, maxReasks, name).",
    );
  });

  test('an inherited known key is refused too: a spread would drop what a read sees', () => {
    const inherited = Object.create({ maxReasks: 2 }) as Options;
    expect(inherited.maxReasks).toBe(2);
    expect({ ...inherited }.maxReasks).toBeUndefined();
    expect(refusal(inherited)).toMatch(
      /^api: options\.maxReasks is inherited from the object's prototype; give options as the object's own keys \(e\.g\. \{ \.\.\.defaults, \.\.\.options \}\)/,
    );
  });

  test('inherited keys are found at any depth of the chain, symbols included', () => {
    const grand = Object.create(Object.create({ colour: 'blue' }), { name: { value: 'n' } });
    expect(refusal(grand)).toMatch(/^api: options\.colour is not an option \(and is inherited/);
    expect(refusal(Object.create({ [Symbol('x')]: 1 }))).toMatch(
      /^api: options\[Symbol\(x\)\] is not an option/,
    );
  });

  test('a key the object shadows with its own is never read from the prototype: it passes', () => {
    const shadowed = Object.assign(Object.create({ name: 'default' }), { name: 'own' });
    expect(check(shadowed)).not.toThrow();
  });

  test('a class instance passes: its methods are not enumerable, and its fields are its own', () => {
    class Settings {
      name = 'n';
      mimeType = 'text/plain';
      describe(): string {
        return `${this.name} (${this.mimeType})`;
      }
    }
    expect(check(new Settings())).not.toThrow();
  });

  test('what is set on Object.prototype is not an option of any one object', () => {
    const key = 'parleyOptionKeysTest';
    Object.defineProperty(Object.prototype, key, {
      value: 1,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    try {
      expect(check({ name: 'n' })).not.toThrow();
    } finally {
      delete (Object.prototype as Record<string, unknown>)[key];
    }
  });
});
