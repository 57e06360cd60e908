import { type } from 'arktype';
import { describe, expect, test } from 'vitest';

import { compileResponseType } from '../src/index.ts';
import './fixtures/arktypeMeta.ts';
import { expectNotLogged, expectRefused, invalidAnswer } from './fixtures/errors.ts';

// ArkType, read through its own JSON Schema conversion: what is specific to ArkType. The shared
// table and refusals are in libraryTable and libraryRefusals.

function fieldOf(schema: type.Any): unknown {
  return compileResponseType(type({ f: schema })).requestedSchema.properties['f'];
}

function refusal(schema: type.Any): string {
  try {
    compileResponseType(type({ f: schema }));
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('expected a TypeError');
}

describe('an ArkType type', () => {
  test('labels: .describe(), .configure({ title }) and optionTitles declared on ArkEnv', () => {
    expect(fieldOf(type('string').describe('your full name').configure({ title: 'Name' }))).toEqual(
      {
        type: 'string',
        title: 'Name',
        description: 'your full name',
      },
    );
    expect(fieldOf(type("'a' | 'b'").configure({ optionTitles: { a: 'First' } }))).toEqual({
      type: 'string',
      oneOf: [
        { const: 'a', title: 'First' },
        { const: 'b', title: 'b' },
      ],
    });
  });

  test('string.email and string.url are formats; the regex ArkType checks email with is not sent', () => {
    expect(fieldOf(type('string.email'))).toEqual({ type: 'string', format: 'email' });
    expect(fieldOf(type('string.url'))).toEqual({ type: 'string', format: 'uri' });
    const compiled = compileResponseType(type({ owner: 'string.email' }));
    expectRefused(() => compiled.parse({ owner: 'not-an-email' }), 'owner', /email/);
  });

  test('a regex beside string.email is refused as a pattern, as any regex is', () => {
    expect(refusal(type('string.email').and(/^a/))).toMatch(
      /^compileResponseType: field 'f' has a pattern \(a regular expression\)/,
    );
  });

  test('ArkType has no date formats: string.date.iso is a pattern, refused', () => {
    expect(refusal(type('string.date.iso'))).toMatch(
      /^compileResponseType: field 'f' has a pattern/,
    );
  });

  test('defaults on properties are sent and filled; ArkType itself refuses an invalid one', () => {
    const compiled = compileResponseType(
      type({ seats: type('1 <= number.integer <= 9').default(1), 'note?': 'string' }),
    );
    expect(compiled.requestedSchema).toEqual({
      type: 'object',
      properties: {
        seats: { type: 'integer', minimum: 1, maximum: 9, default: 1 },
        note: { type: 'string' },
      },
    });
    expect(compiled.parse({})).toEqual({ seats: 1 });
    expect(() => type({ seats: type('number <= 3').default(5) })).toThrow(/must be at most 3/);
  });

  test('fields and options come in ArkType’s order: required keys first, options sorted', () => {
    const compiled = compileResponseType(
      type({ 'zip?': 'string', size: "'s' | 'm' | 'l'", city: 'string' }),
    );
    expect(Object.keys(compiled.requestedSchema.properties)).toEqual(['city', 'size', 'zip']);
    expect(compiled.requestedSchema.properties['size']).toEqual({
      type: 'string',
      enum: ['l', 'm', 's'],
    });
  });

  test('narrowing and morphs run on the server: the input side is sent, the output returned', () => {
    const compiled = compileResponseType(
      type({
        code: type('string.trim').narrow(
          (s, ctx) => s === s.toUpperCase() || ctx.mustBe('upper case'),
        ),
      }).pipe((value) => value.code.length),
    );
    expect(compiled.requestedSchema).toEqual({
      type: 'object',
      properties: { code: { type: 'string' } },
      required: ['code'],
    });
    expect(compiled.parse({ code: '  ABC ' })).toBe(3);
    expectRefused(() => compiled.parse({ code: 'abc' }), 'code', /^must be upper case/);
  });

  test('a range of one number is that number, a literal, refused as a non-string option', () => {
    expect(refusal(type('0 <= number <= 0'))).toMatch(
      /has the option the number 0; options are strings/,
    );
  });

  test('values JSON cannot carry are refused, naming them', () => {
    expect(refusal(type.instanceOf(Map))).toBe(
      "compileResponseType: field 'f' is an instance of Map, which the spec's restricted subset " +
        'cannot express.',
    );
    expect(refusal(type('symbol'))).toMatch(/is a symbol/);
  });

  test("answers carry ArkType's message without the path; the field is named apart", () => {
    const compiled = compileResponseType(type({ age: 'number.integer' }));
    const error = invalidAnswer(() => compiled.parse({ age: 1.5 }));
    expect(error.data).toEqual({ field: 'age', reason: 'must be an integer' });
    expect(error.message).toBe("Invalid answer in field 'age': must be an integer");
    expect(error.reasonWithAnswer()).toBe('must be an integer (was 1.5)');
  });

  test("what may be logged leaves out the value ArkType quotes after 'was'", () => {
    const compiled = compileResponseType(
      type({
        code: type('string').narrow((code, ctx) => code.startsWith('A') || ctx.mustBe('an A-code')),
      }),
    );
    const error = expectRefused(
      () => compiled.parse({ code: 'hunter2-4417' }),
      'code',
      /^must be an A-code$/,
      /^must be an A-code \(was "hunter2-4417"\)$/,
    );
    expectNotLogged(error, 'hunter2-4417');
    expect(error.cause).toBeUndefined();
  });

  test('a field named like an Object.prototype member is still refused by name', () => {
    // ArkType 2.2 throws while it builds the message for a key named `constructor`; the answer
    // is refused all the same, with a plainer reason.
    const compiled = compileResponseType(type({ 'constructor?': 'boolean' }));
    expectRefused(() => compiled.parse({ constructor: 'yes' }), 'constructor');
    expect(compiled.parse({ constructor: true })).toEqual({ constructor: true });
  });
});
