import type { PrimitiveFieldSchema } from '@parley/core';

import { describeValue, isPlainObject, ownValue, quoteList } from './values.ts';

/**
 * The option shorthands of `responseType`, turned into the wrapper field's schema:
 * `['a', 'b']`, `[['a', 'b']]`, `{ a: { title } }`, `[{ a: { title } }]`, a TypeScript string
 * enum and `[TheEnum]`.
 */

const API = 'compileResponseType';

/** An option, with a title only when the author gave one. */
export interface ShorthandOption {
  value: string;
  title?: string;
}

function fail(reason: string): never {
  throw new TypeError(`${API}: ${reason}`);
}

function distinct(options: ShorthandOption[], what: string): ShorthandOption[] {
  if (options.length === 0) fail(`${what} has no options; give at least one.`);
  const seen = new Set<string>();
  for (const { value } of options) {
    if (seen.has(value)) fail(`${what} lists the option '${value}' twice.`);
    seen.add(value);
  }
  return options;
}

function listOptions(list: readonly unknown[]): ShorthandOption[] {
  const bad = list.find((item) => typeof item !== 'string');
  if (bad !== undefined) {
    fail(
      `an options list holds ${describeValue(bad)}; options are strings (or one nested list for multi-select).`,
    );
  }
  return distinct(
    (list as string[]).map((value) => ({ value })),
    'the options list',
  );
}

/**
 * Options from a `{ value: { title } }` map or a TypeScript string enum object. Told apart by
 * their values: all `{ title }` objects, or all strings. Numeric enums are refused because
 * their runtime object also maps numbers back to names, and answers are strings anyway.
 */
export function objectOptions(map: Record<string, unknown>): ShorthandOption[] {
  const values = Object.values(map);
  if (values.length === 0) fail('an options object has no options; give at least one.');
  if (values.some((value) => typeof value === 'number')) {
    fail(
      'numeric enums cannot be elicited (their runtime object maps numbers back to names, and ' +
        "answers are strings); use a string enum such as enum Priority { Low = 'low' }.",
    );
  }
  if (values.every((value) => typeof value === 'string')) {
    // A string enum: answers are its values. Two keys with one value are one option.
    return [...new Set(values as string[])].map((value) => ({ value }));
  }
  const options = Object.entries(map).map(([value, entry]): ShorthandOption => {
    if (!isPlainObject(entry) || typeof entry['title'] !== 'string') {
      return fail(
        `the option '${value}' is ${describeValue(entry)}; titled options look like ` +
          `{ ${value}: { title: 'Shown to the user' } }, and an enum object maps names to strings.`,
      );
    }
    return { value, title: entry['title'] };
  });
  return distinct(options, 'the titled options');
}

/** Options from what a single- or multi-select shorthand holds. */
export function shorthandOptions(source: unknown): ShorthandOption[] {
  if (Array.isArray(source)) return listOptions(source);
  if (isPlainObject(source)) return objectOptions(source);
  return fail(
    `a multi-select is written [[…options]], [{ value: { title } }] or [TheEnum]; got [${describeValue(source)}].`,
  );
}

function isTitled(options: readonly ShorthandOption[]): boolean {
  return options.some((option) => option.title !== undefined);
}

function titled(options: readonly ShorthandOption[]): { const: string; title: string }[] {
  return options.map(({ value, title }) => ({ const: value, title: title ?? value }));
}

/** `enum`, or `oneOf` with titles (SEP-1330). */
export function singleSelectField(options: readonly ShorthandOption[]): PrimitiveFieldSchema {
  return isTitled(options)
    ? { type: 'string', oneOf: titled(options) }
    : { type: 'string', enum: options.map((option) => option.value) };
}

/** `items.enum`, or `items.anyOf` with titles (SEP-1330). */
export function multiSelectField(options: readonly ShorthandOption[]): PrimitiveFieldSchema {
  return isTitled(options)
    ? { type: 'array', items: { anyOf: titled(options) } }
    : { type: 'array', items: { type: 'string', enum: options.map((option) => option.value) } };
}

/**
 * Options with the titles of zod `optionTitles` metadata, checked to name real options.
 * `failField` prefixes the field name to the reason.
 */
export function withTitles(
  values: readonly string[],
  titles: Record<string, unknown> | undefined,
  failField: (reason: string) => never,
): ShorthandOption[] {
  if (titles === undefined) return values.map((value) => ({ value }));
  for (const [value, title] of Object.entries(titles)) {
    if (!values.includes(value)) {
      failField(
        `has optionTitles for '${value}', which is not one of its options ${quoteList(values)}.`,
      );
    }
    if (typeof title !== 'string') {
      failField(`has an optionTitles entry for '${value}' that is not a string.`);
    }
  }
  // Untitled options get their value as title: oneOf entries need one each.
  return values.map((value) => {
    const title = ownValue(titles, value);
    return { value, title: typeof title === 'string' ? title : value };
  });
}
