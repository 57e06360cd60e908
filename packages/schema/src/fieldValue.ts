import type { FieldDescriptor } from './fieldDescriptor.ts';
import { formatExample, matchesFormat } from './formats.ts';
import { codePointLength, describeValue, quoteList } from './values.ts';

/**
 * Why `value` is not a valid answer for `field`, or `undefined` when it is. A reason, not an
 * error, so the caller decides which error to raise: `InvalidAnswerError` for answers,
 * `TypeError` for a schema whose own `default` does not fit.
 */
export function fieldValueProblem(field: FieldDescriptor, value: unknown): string | undefined {
  if (value === null) return 'null is not an answer; leave the field out instead';
  switch (field.kind) {
    case 'string':
      return stringProblem(field, value);
    case 'number':
    case 'integer':
      return numberProblem(field, value);
    case 'boolean':
      return typeof value === 'boolean'
        ? undefined
        : `expected true or false, got ${describeValue(value)}`;
    case 'single-select':
      return singleSelectProblem(field, value);
    case 'multi-select':
      return multiSelectProblem(field, value);
  }
}

function stringProblem(field: FieldDescriptor, value: unknown): string | undefined {
  if (typeof value !== 'string') return `expected a string, got ${describeValue(value)}`;
  const length = codePointLength(value);
  if (field.minLength !== undefined && length < field.minLength) {
    return `must be at least ${plural(field.minLength, 'character')} long, got ${length}`;
  }
  if (field.maxLength !== undefined && length > field.maxLength) {
    return `must be at most ${plural(field.maxLength, 'character')} long, got ${length}`;
  }
  if (field.format !== undefined && !matchesFormat(field.format, value)) {
    return `expected ${formatExample(field.format)}, got ${describeValue(value)}`;
  }
  return undefined;
}

function numberProblem(field: FieldDescriptor, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return `expected ${field.kind === 'integer' ? 'an integer' : 'a number'}, got ${describeValue(value)}`;
  }
  if (field.kind === 'integer' && !Number.isInteger(value)) {
    return `expected an integer, got ${describeValue(value)}`;
  }
  if (field.minimum !== undefined && value < field.minimum) {
    return `must be at least ${field.minimum}, got ${value}`;
  }
  if (field.maximum !== undefined && value > field.maximum) {
    return `must be at most ${field.maximum}, got ${value}`;
  }
  return undefined;
}

function optionValues(field: FieldDescriptor): string[] {
  return (field.options ?? []).map((option) => option.value);
}

function singleSelectProblem(field: FieldDescriptor, value: unknown): string | undefined {
  const values = optionValues(field);
  if (typeof value !== 'string') {
    return `expected one of ${quoteList(values)}, got ${describeValue(value)}`;
  }
  return values.includes(value)
    ? undefined
    : `'${value}' is not one of the options ${quoteList(values)}`;
}

function multiSelectProblem(field: FieldDescriptor, value: unknown): string | undefined {
  const values = optionValues(field);
  if (!Array.isArray(value)) {
    return `expected a list of options from ${quoteList(values)}, got ${describeValue(value)}`;
  }
  for (const [index, item] of value.entries()) {
    if (typeof item !== 'string') {
      return `item ${index} must be one of ${quoteList(values)}, got ${describeValue(item)}`;
    }
    if (!values.includes(item)) {
      return `item ${index} ('${item}') is not one of the options ${quoteList(values)}`;
    }
  }
  if (field.minItems !== undefined && value.length < field.minItems) {
    return `choose at least ${plural(field.minItems, 'option')}, got ${value.length}`;
  }
  if (field.maxItems !== undefined && value.length > field.maxItems) {
    return `choose at most ${plural(field.maxItems, 'option')}, got ${value.length}`;
  }
  return undefined;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
