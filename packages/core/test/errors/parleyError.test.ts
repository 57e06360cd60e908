import { describe, expect, test } from 'vitest';

import {
  EraMismatchError,
  InvalidAnswerError,
  InvalidInputResponsesError,
  InvalidRequestStateError,
  ParleyError,
  RoundsExceededError,
  UnsupportedCapabilityError,
  UnsupportedProtocolVersionError,
} from '../../src/index.ts';

const samples = [
  new EraMismatchError({
    kind: 'tool',
    name: 't',
    protocolVersion: '2025-11-25',
    used: 'inputRequired',
  }),
  new UnsupportedCapabilityError({
    feature: 'elicitation',
    requiredCapabilities: { elicitation: { form: {} } },
  }),
  new RoundsExceededError('tools/call', {
    maxRounds: 3,
    lastResult: { resultType: 'input_required', requestState: 's' },
  }),
  new InvalidAnswerError({ field: 'age', reason: 'expected an integer' }),
  new InvalidRequestStateError({ reason: 'tampered' }),
  new InvalidInputResponsesError({ reason: 'not an object' }),
  new UnsupportedProtocolVersionError({ supported: ['2026-07-28'], requested: '1900-01-01' }),
];

describe('ParleyError', () => {
  test('carries code, message, data and cause', () => {
    const cause = new Error('root');
    const error = new ParleyError('internal', 'something broke', { data: { a: 1 }, cause });
    expect(error.code).toBe('internal');
    expect(error.message).toBe('something broke');
    expect(error.data).toEqual({ a: 1 });
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('ParleyError');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(ParleyError);
  });

  test('has no cause property when none is given', () => {
    expect('cause' in new ParleyError('internal', 'x')).toBe(false);
  });

  test.each(samples.map((error) => [error.name, error] as const))(
    '%s is a ParleyError and an Error, with its own name and a stack',
    (name, error) => {
      expect(error).toBeInstanceOf(ParleyError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
      expect(error.name).toBe(error.constructor.name);
      expect(error.stack).toContain(name);
    },
  );

  test('subclasses do not match each other', () => {
    const classes = samples.map((error) => error.constructor as typeof ParleyError);
    for (const error of samples) {
      for (const cls of classes) {
        expect(error instanceof cls).toBe(error.constructor === cls);
      }
    }
  });

  test('a plain Error and non-objects are not ParleyErrors', () => {
    expect(new Error('x')).not.toBeInstanceOf(ParleyError);
    expect((null as unknown) instanceof ParleyError).toBe(false);
    expect(('text' as unknown) instanceof ParleyError).toBe(false);
    expect({ code: 'internal' }).not.toBeInstanceOf(ParleyError);
  });

  test("an author's own subclass works with instanceof by prototype", () => {
    class QuotaError extends ParleyError {}
    class OtherError extends ParleyError {}
    const error = new QuotaError('internal', 'quota');
    expect(error).toBeInstanceOf(QuotaError);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).not.toBeInstanceOf(OtherError);
    expect(new ParleyError('internal', 'x')).not.toBeInstanceOf(QuotaError);
  });

  test('toJSON gives name, code, message and data', () => {
    const error = new InvalidAnswerError({ field: 'age', reason: 'expected an integer' });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'InvalidAnswerError',
      code: 'invalid_answer',
      message: "Invalid answer in field 'age': expected an integer",
      data: { field: 'age', reason: 'expected an integer' },
    });
  });
});
