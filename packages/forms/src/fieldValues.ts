import type { ElicitContentValue } from '@parley/core';
import { fieldValueProblem, type FieldDescriptor } from '@parley/schema';

import { fromLocalDateTime, toLocalDateTime } from './dateTime.ts';

/**
 * What a control holds, before it becomes an answer: the text of a text, number or date input
 * (`''` when empty), a single choice's value (`''` for none; a yes/no question's is `'true'` or
 * `'false'`), the chosen values of a checkbox group. Kept as typed so that "left empty" stays
 * distinguishable from a value, and a number is parsed once, on its way out.
 */
export type RawValue = string | string[];

/** A yes/no question's two answers, as its radio buttons hold them. */
export const YES = 'true';
export const NO = 'false';

/**
 * The control's starting state: the schema's `default` when it has one, else nothing chosen or
 * typed. Never a guess: a yes/no question without a default starts unanswered, so that the
 * person answers it rather than the form (an unticked box would have sent `false`).
 */
export function initialRaw(field: FieldDescriptor): RawValue {
  const given = field.default;
  switch (field.kind) {
    case 'boolean':
      return typeof given === 'boolean' ? String(given) : '';
    case 'multi-select':
      return Array.isArray(given) ? [...given] : [];
    case 'number':
    case 'integer':
      return typeof given === 'number' ? String(given) : '';
    case 'string':
      if (typeof given !== 'string') return '';
      return field.format === 'date-time' ? toLocalDateTime(given) : given;
    case 'single-select':
      return typeof given === 'string' ? given : '';
  }
}

/** Text a number input could not read (`1e`, `--2`): the browser reports it as empty. */
export const UNREADABLE_NUMBER: unique symbol = Symbol('unreadable number');

/**
 * The answer a control gives, in the wire type the schema asks for, or `undefined` when it was
 * left empty (the field is then left out of `content`, never sent as `""` or `null`).
 */
export function wireValue(
  field: FieldDescriptor,
  raw: RawValue,
): ElicitContentValue | typeof UNREADABLE_NUMBER | undefined {
  switch (field.kind) {
    case 'boolean':
      // Only what the person chose (or the default, untouched): unanswered is left out.
      if (raw === YES) return true;
      return raw === NO ? false : undefined;
    case 'multi-select': {
      const chosen = Array.isArray(raw) ? raw : [];
      // In the schema's order, whatever order they were ticked in.
      const ordered = (field.options ?? [])
        .map((option) => option.value)
        .filter((value) => chosen.includes(value));
      const strays = chosen.filter((value) => !ordered.includes(value));
      const values = [...ordered, ...strays];
      // Nothing chosen is "left empty", unless the field has a default: then it is a choice of
      // none, since leaving it out would have the server fill the default back in.
      if (values.length === 0 && field.default === undefined) return undefined;
      return values;
    }
    case 'number':
    case 'integer': {
      if (typeof raw !== 'string' || raw.trim() === '') return undefined;
      const value = Number(raw);
      return Number.isNaN(value) ? UNREADABLE_NUMBER : value;
    }
    case 'string':
    case 'single-select': {
      if (typeof raw !== 'string' || raw === '') return undefined;
      if (field.kind === 'string' && field.format === 'date-time')
        return dateTimeAnswer(field, raw);
      return raw;
    }
  }
}

function dateTimeAnswer(field: FieldDescriptor, local: string): string {
  // An untouched default goes back exactly as the server wrote it (its offset, its precision).
  const written = fromLocalDateTime(local);
  if (typeof field.default === 'string') {
    const sameText = toLocalDateTime(field.default) === local;
    // The input drops `:00` seconds once edited, so the same instant counts as untouched too.
    const sameInstant =
      written !== undefined &&
      new Date(written).getTime() === new Date(field.default.toUpperCase()).getTime();
    if (sameText || sameInstant) return field.default;
  }
  return written ?? local;
}

/**
 * Why the control's state is not an answer the server would take, in the server's own words:
 * `is required` for a required field left empty (as `checkContent` says it), else
 * `fieldValueProblem`'s reason; `undefined` when it is fine.
 */
export function rawProblem(
  field: FieldDescriptor,
  raw: RawValue,
  badInput = false,
): string | undefined {
  const value = badInput ? UNREADABLE_NUMBER : wireValue(field, raw);
  if (value === UNREADABLE_NUMBER) {
    return `expected ${field.kind === 'integer' ? 'an integer' : 'a number'}, got text that is not one`;
  }
  if (value === undefined) return field.required ? 'is required' : undefined;
  return fieldValueProblem(field, value);
}

/** The `content` of an accepted answer: every field that has a value, in schema order. */
export function contentOf(
  fields: readonly FieldDescriptor[],
  raw: ReadonlyMap<string, RawValue>,
): Record<string, ElicitContentValue> {
  const entries: [string, ElicitContentValue][] = [];
  for (const field of fields) {
    const value = wireValue(field, raw.get(field.name) ?? initialRaw(field));
    if (value !== undefined && value !== UNREADABLE_NUMBER) entries.push([field.name, value]);
  }
  // fromEntries defines own properties, so a field named `__proto__` stays data.
  return Object.fromEntries(entries);
}
