import { InvalidAnswerError, type ElicitContentValue, type ElicitationSchema } from '@parley/core';
import { createResponseType, type FieldDescriptor } from '@parley/schema';

import { CANCELLED, type Cancelled, type Choice, type Prompter } from './prompter.ts';

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

/** What the person sees above the prompt: the title, and the description when there is one. */
export function fieldLabel(field: FieldDescriptor): string {
  const title = field.title ?? field.name;
  const optional = field.required || field.default !== undefined ? '' : ' (optional)';
  return `${title}${optional}${field.description !== undefined ? ` · ${field.description}` : ''}`;
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
      if (error instanceof InvalidAnswerError)
        return fieldProblem(field, error.data?.reason ?? error.message);
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
): Promise<FieldAnswer | Cancelled> {
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
      if (answer === CANCELLED) return CANCELLED;
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
      if (answer === CANCELLED) return CANCELLED;
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
