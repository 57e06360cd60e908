import type { FieldDescriptor } from './fieldDescriptor.ts';
import { formatExample, matchesFormat } from './formats.ts';
import { problem, typeProblem, type ValueProblem } from './valueProblem.ts';
import { codePointLength, describeValue, quoteList } from './values.ts';

/**
 * Why `value` is not a valid answer for `field`, or `undefined` when it is. A reason, not an
 * error, so the caller decides which error to raise: `InvalidAnswerError` for answers,
 * `TypeError` for a schema whose own `default` does not fit. It may quote the value (`expected a
 * date (YYYY-MM-DD), got the string "tomorow"`): it is for whoever holds the value, such as the
 * form in front of the person typing it.
 */
export function fieldValueProblem(field: FieldDescriptor, value: unknown): string | undefined {
  return valueProblem(field, value)?.withAnswer;
}

/**
 * Why `value` is not a valid answer for `field`, both with and without the value (see
 * {@link ValueProblem}), or `undefined` when it is.
 */
export function valueProblem(field: FieldDescriptor, value: unknown): ValueProblem | undefined {
  if (value === null) return problem('null is not an answer; leave the field out instead');
  switch (field.kind) {
    case 'string':
      return stringProblem(field, value);
    case 'number':
    case 'integer':
      return numberProblem(field, value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : typeProblem('expected true or false', value);
    case 'single-select':
      return singleSelectProblem(field, value);
    case 'multi-select':
      return multiSelectProblem(field, value);
  }
}

function stringProblem(field: FieldDescriptor, value: unknown): ValueProblem | undefined {
  if (typeof value !== 'string') return typeProblem('expected a string', value);
  const length = codePointLength(value);
  if (field.minLength !== undefined && length < field.minLength) {
    return problem(`must be at least ${plural(field.minLength, 'character')} long`, String(length));
  }
  if (field.maxLength !== undefined && length > field.maxLength) {
    return problem(`must be at most ${plural(field.maxLength, 'character')} long`, String(length));
  }
  if (field.format !== undefined && !matchesFormat(field.format, value)) {
    return problem(`expected ${formatExample(field.format)}`, describeValue(value));
  }
  return undefined;
}

function numberProblem(field: FieldDescriptor, value: unknown): ValueProblem | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return typeProblem(
      field.kind === 'integer' ? 'expected an integer' : 'expected a number',
      value,
    );
  }
  if (field.kind === 'integer' && !Number.isInteger(value)) {
    return problem('expected an integer', describeValue(value));
  }
  if (field.minimum !== undefined && value < field.minimum) {
    return problem(`must be at least ${field.minimum}`, String(value));
  }
  if (field.maximum !== undefined && value > field.maximum) {
    return problem(`must be at most ${field.maximum}`, String(value));
  }
  return undefined;
}

function optionValues(field: FieldDescriptor): string[] {
  return (field.options ?? []).map((option) => option.value);
}

function singleSelectProblem(field: FieldDescriptor, value: unknown): ValueProblem | undefined {
  const values = optionValues(field);
  if (typeof value !== 'string') return typeProblem(`expected one of ${quoteList(values)}`, value);
  if (values.includes(value)) return undefined;
  const notAnOption = `is not one of the options ${quoteList(values)}`;
  return { reason: notAnOption, withAnswer: `'${value}' ${notAnOption}` };
}

function multiSelectProblem(field: FieldDescriptor, value: unknown): ValueProblem | undefined {
  const values = optionValues(field);
  if (!Array.isArray(value)) {
    return typeProblem(`expected a list of options from ${quoteList(values)}`, value);
  }
  for (const [index, item] of value.entries()) {
    if (typeof item !== 'string') {
      return typeProblem(`item ${index} must be one of ${quoteList(values)}`, item);
    }
    if (!values.includes(item)) {
      const notAnOption = `is not one of the options ${quoteList(values)}`;
      return {
        reason: `item ${index} ${notAnOption}`,
        withAnswer: `item ${index} ('${item}') ${notAnOption}`,
      };
    }
  }
  if (field.minItems !== undefined && value.length < field.minItems) {
    return problem(`choose at least ${plural(field.minItems, 'option')}`, String(value.length));
  }
  if (field.maxItems !== undefined && value.length > field.maxItems) {
    return problem(`choose at most ${plural(field.maxItems, 'option')}`, String(value.length));
  }
  return undefined;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
