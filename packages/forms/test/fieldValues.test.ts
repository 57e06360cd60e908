import { describeFields, type FieldDescriptor } from '@parley/schema';
import { describe, expect, test } from 'vitest';

import { fromLocalDateTime, toLocalDateTime } from '../src/dateTime.ts';
import { contentOf, initialRaw, rawProblem, wireValue } from '../src/fieldValues.ts';

function field(schema: Record<string, unknown>, required = false): FieldDescriptor {
  return describeFields({
    type: 'object',
    properties: { f: schema as never },
    ...(required ? { required: ['f'] } : {}),
  })[0]!;
}

describe('date-time', () => {
  test('a datetime-local value becomes RFC 3339 with the page offset, seconds included', () => {
    const offset = -new Date(2026, 7, 1, 9, 30).getTimezoneOffset();
    const written = fromLocalDateTime('2026-08-01T09:30');
    expect(written).toMatch(/^2026-08-01T09:30:00(Z|[+-]\d{2}:\d{2})$/);
    expect(new Date(written!).getTime()).toBe(Date.UTC(2026, 7, 1, 9, 30) - offset * 60_000);
    expect(fromLocalDateTime('2026-08-01T09:30:15.250')).toMatch(/^2026-08-01T09:30:15/);
    expect(fromLocalDateTime('2026-08-01')).toBeUndefined();
  });

  test('an RFC 3339 default is shown as the same instant in local time', () => {
    const local = toLocalDateTime('2026-08-01T07:30:00z');
    expect(new Date(local).getTime()).toBe(Date.UTC(2026, 7, 1, 7, 30));
    expect(toLocalDateTime('not a date')).toBe('');
  });

  test('an untouched default goes back verbatim; a changed one is converted', () => {
    const when = field({ type: 'string', format: 'date-time', default: '2026-08-01T07:30:00.5Z' });
    const raw = initialRaw(when) as string;
    expect(wireValue(when, raw)).toBe('2026-08-01T07:30:00.5Z');
    expect(wireValue(when, '2026-08-02T10:00')).toBe(fromLocalDateTime('2026-08-02T10:00'));
  });
});

describe('the answer a control gives', () => {
  test('numbers are numbers; empty optional fields are left out', () => {
    const count = field({ type: 'integer', minimum: 1 });
    expect(wireValue(count, '3')).toBe(3);
    expect(wireValue(count, '')).toBeUndefined();
    expect(rawProblem(count, '')).toBeUndefined();
    expect(rawProblem(count, '0')).toBe('must be at least 1, got 0');
    expect(rawProblem(count, '1.5')).toBe('expected an integer, got the number 1.5');
    expect(rawProblem(count, '', true)).toBe('expected an integer, got text that is not one');
  });

  test('a required field left empty is "is required", as the server says', () => {
    expect(rawProblem(field({ type: 'string' }, true), '')).toBe('is required');
    expect(rawProblem(field({ type: 'string', enum: ['a', 'b'] }, true), '')).toBe('is required');
    expect(
      rawProblem(field({ type: 'array', items: { type: 'string', enum: ['a'] } }, true), []),
    ).toBe('is required');
  });

  test('a yes/no answers only what was chosen; a multi-select keeps the schema order', () => {
    const yesNo = field({ type: 'boolean' });
    expect(wireValue(yesNo, 'false')).toBe(false);
    expect(wireValue(yesNo, 'true')).toBe(true);
    expect(wireValue(yesNo, '')).toBeUndefined();
    const tags = field({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] } });
    expect(wireValue(tags, ['c', 'a'])).toEqual(['a', 'c']);
    expect(wireValue(tags, [])).toBeUndefined();
    // Clearing a field that has a default sends the empty choice: leaving it out would have the
    // server fill the default back in.
    const defaulted = field({
      type: 'array',
      items: { type: 'string', enum: ['a'] },
      default: ['a'],
    });
    expect(wireValue(defaulted, [])).toEqual([]);
  });

  test('content holds exactly the fields that have a value, in schema order', () => {
    const fields = describeFields({
      type: 'object',
      properties: {
        b: { type: 'string' },
        a: { type: 'number', default: 1.5 },
        c: { type: 'boolean' },
      },
    });
    const raw = new Map(fields.map((f) => [f.name, initialRaw(f)]));
    // The untouched yes/no (no default) is left out, not sent as false.
    expect(contentOf(fields, raw)).toStrictEqual({ a: 1.5 });
    expect(contentOf(fields, new Map([...raw, ['c', 'false']]))).toStrictEqual({
      a: 1.5,
      c: false,
    });
    expect(Object.keys(contentOf(fields, new Map([...raw, ['b', 'x'], ['c', 'true']])))).toEqual([
      'b',
      'a',
      'c',
    ]);
  });
});
