import { InvalidAnswerError, type ElicitContentValue, type ElicitationSchema } from '@parley/core';
import { createResponseType, type FieldDescriptor } from '@parley/schema';

import { isDismissed, type Choice, type Dismissed, type Prompter } from './prompter.ts';

/**
 * One form field as one terminal prompt: text for strings and numbers, yes/no for booleans, a
 * list for selects. The value typed is checked against the field's own schema while the prompt
 * is open, so a mistake is shown under the field and fixed there.
 */

/** `undefined`: the person left the field empty (the schema's default, if any, applies). */
export type FieldAnswer = ElicitContentValue | undefined;

/** Stands for "no option" in an optional single select that has no default. */
export const NO_CHOICE = '\u0000parley-cli:none';

const FORMAT_PLACEHOLDERS: Record<NonNullable<FieldDescriptor['format']>, string> = {
  date: 'YYYY-MM-DD',
  'date-time': 'YYYY-MM-DDThh:mm:ssZ',
  email: 'name@example.com',
  uri: 'https://…',
};

/** `5–480`, `at least 5`, `at most 480`, or nothing, for a pair of bounds. */
function range(min: number | undefined, max: number | undefined, unit = ''): string | undefined {
  if (min !== undefined && max !== undefined)
    return min === max ? `exactly ${min}${unit}` : `${min}–${max}${unit}`;
  if (min !== undefined) return `at least ${min}${unit}`;
  if (max !== undefined) return `at most ${max}${unit}`;
  return undefined;
}

/**
 * The limits a value must keep, said before it is typed (`whole number, 5–480`, `at least 2
 * characters`, `choose 1–3`), so a person does not learn them from a refusal.
 */
export function fieldLimits(field: FieldDescriptor): string | undefined {
  switch (field.kind) {
    case 'number':
    case 'integer': {
      const bounds = range(field.minimum, field.maximum);
      const whole = field.kind === 'integer' ? 'whole number' : undefined;
      return [whole, bounds].filter(Boolean).join(', ') || undefined;
    }
    case 'string': {
      // "At least 1 character" only repeats what "required" means.
      const min = field.minLength === 1 && field.required ? undefined : field.minLength;
      const characters = (n: number | undefined) => (n === 1 ? ' character' : ' characters');
      return range(min, field.maxLength, characters(field.maxLength ?? min));
    }
    case 'multi-select': {
      const bounds = range(field.minItems, field.maxItems);
      return bounds === undefined ? undefined : `choose ${bounds}`;
    }
    default:
      return undefined;
  }
}

/** What the person sees above the prompt: the title, the description, and the limits. */
export function fieldLabel(field: FieldDescriptor): string {
  const title = field.title ?? field.name;
  const optional = field.required || field.default !== undefined ? '' : ' (optional)';
  return [`${title}${optional}`, field.description, fieldLimits(field)]
    .filter((part) => part !== undefined && part !== '')
    .join(' · ');
}

/** "Title is required", "Date: expected a date …": a refusal as a sentence about the field. */
export function fieldProblem(field: FieldDescriptor, reason: string): string {
  const title = field.title ?? field.name;
  return /^(is|must) /.test(reason) ? `${title} ${reason}` : `${title}: ${reason}`;
}

/**
 * Checks one field alone, with the same rules `responseType(values)` applies to the whole form:
 * a one-property copy of the requested schema. Returns the reason a value is refused.
 */
export function fieldChecker(
  requestedSchema: ElicitationSchema,
  field: FieldDescriptor,
): (value: FieldAnswer) => string | undefined {
  const property = requestedSchema.properties[field.name];
  if (property === undefined) return () => undefined;
  const single = createResponseType({
    type: 'object',
    properties: { [field.name]: property },
    ...(field.required ? { required: [field.name] } : {}),
  });
  return (value) => {
    try {
      single.validate(value === undefined ? {} : { [field.name]: value });
      return undefined;
    } catch (error) {
      // Shown to the person typing, so it may quote what they typed.
      if (error instanceof InvalidAnswerError) return fieldProblem(field, error.reasonWithAnswer());
      throw error;
    }
  };
}

const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** Typed text to a field value, or the reason it is not one. */
export function parseTyped(
  field: FieldDescriptor,
  input: string,
): { value: FieldAnswer } | { problem: string } {
  // An empty answer means "nothing": the default applies, or `required` says so.
  if (input.trim() === '') return { value: undefined };
  if (field.kind === 'number' || field.kind === 'integer') {
    const trimmed = input.trim();
    if (!NUMBER.test(trimmed)) {
      return {
        problem: `${field.title ?? field.name}: enter ${field.kind === 'integer' ? 'a whole number' : 'a number'}`,
      };
    }
    return { value: Number(trimmed) };
  }
  return { value: input };
}

function typedText(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

export interface AskFieldOptions {
  check: (value: FieldAnswer) => string | undefined;
  /** What the person gave last time, when the field is asked again. */
  previous?: FieldAnswer;
  signal?: AbortSignal;
}

/** Ask for one field. */
export async function askField(
  prompter: Prompter,
  field: FieldDescriptor,
  { check, previous, signal }: AskFieldOptions,
): Promise<FieldAnswer | Dismissed> {
  const message = fieldLabel(field);
  const start = previous ?? field.default;
  const base = { message, ...(signal !== undefined ? { signal } : {}) };
  switch (field.kind) {
    case 'boolean':
      // Without a default, "No" is preselected: many yes/no questions confirm something that
      // cannot be undone (a purchase, a cancellation), and Enter alone should not agree to it.
      return prompter.confirm({
        ...base,
        initialValue: typeof start === 'boolean' ? start : false,
      });
    case 'single-select': {
      const options: Choice<string>[] = optionChoices(field);
      // An optional select with nothing chosen yet needs a way to leave it empty.
      const skippable = !field.required && field.default === undefined;
      if (skippable) options.push({ value: NO_CHOICE, label: '(none)' });
      const answer = await prompter.select({
        ...base,
        options,
        ...(typeof start === 'string' ? { initialValue: start } : {}),
      });
      if (isDismissed(answer)) return answer;
      return answer === NO_CHOICE ? undefined : answer;
    }
    case 'multi-select': {
      return prompter.multiselect({
        ...base,
        options: optionChoices(field),
        required: (field.minItems ?? 0) > 0,
        ...(Array.isArray(start) ? { initialValues: start } : {}),
      });
    }
    case 'string':
    case 'number':
    case 'integer': {
      const initial = typedText(start);
      const placeholder =
        field.format !== undefined ? FORMAT_PLACEHOLDERS[field.format] : undefined;
      const answer = await prompter.text({
        ...base,
        ...(initial !== undefined ? { initialValue: initial } : {}),
        ...(placeholder !== undefined ? { placeholder } : {}),
        validate: (input) => {
          const parsed = parseTyped(field, input);
          return 'problem' in parsed ? parsed.problem : check(parsed.value);
        },
      });
      if (isDismissed(answer)) return answer;
      const parsed = parseTyped(field, answer);
      // The prompt validated already; a prompter that does not validate gets the builder's check.
      return 'value' in parsed ? parsed.value : answer;
    }
  }
}

function optionChoices(field: FieldDescriptor): Choice<string>[] {
  return (field.options ?? []).map((option) => ({
    value: option.value,
    label: option.title,
    // The value is what the server receives; show it when the title hides it.
    ...(option.title.toLowerCase() !== option.value.toLowerCase() ? { hint: option.value } : {}),
  }));
}
