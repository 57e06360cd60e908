import type { ElicitFormParams } from '@parley/core';
import { describeFields, fieldLabel, readReask, type FieldDescriptor } from '@parley/schema';

import { initialRaw, rawProblem, type RawValue } from './fieldValues.ts';

/**
 * A form's state between renders: the fields, what each control holds, and the errors shown.
 * Plain data, so the element stays a thin view over it.
 */
export interface FormModel {
  fields: FieldDescriptor[];
  /** The question as first asked (a re-ask's own sentence and reason taken off). */
  question: string;
  raw: Map<string, RawValue>;
  /** Number inputs holding text the browser could not read as a number. */
  badInput: Set<string>;
  /** Errors shown on fields, by field name: from the last submit, or a server's re-ask. */
  errors: Map<string, string>;
  /** An error about the whole answer (a re-ask that names no field). */
  notice: string | undefined;
  /** Why the request cannot be answered at all (its schema is not one a form can show). */
  unanswerable: string | undefined;
}

/** The form for a request, with a server's re-ask already shown on the field it names. */
export function formModel(params: ElicitFormParams): FormModel {
  const message = typeof params.message === 'string' ? params.message : '';
  let fields: FieldDescriptor[];
  try {
    fields = describeFields(params.requestedSchema);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ...empty(message), unanswerable: reason };
  }
  const model: FormModel = {
    ...empty(message),
    fields,
    raw: new Map(fields.map((field) => [field.name, initialRaw(field)])),
  };
  const reask = readReask(message, fields);
  if (reask !== undefined) {
    model.question = reask.message;
    if (reask.field !== undefined) model.errors.set(reask.field, reask.reason);
    else model.notice = reask.reason;
  }
  return model;
}

function empty(question: string): FormModel {
  return {
    fields: [],
    question,
    raw: new Map(),
    badInput: new Set(),
    errors: new Map(),
    notice: undefined,
    unanswerable: undefined,
  };
}

/** Checks every field as the server would; the errors replace the shown ones. */
export function validate(model: FormModel): void {
  model.errors.clear();
  model.notice = undefined;
  for (const field of model.fields) {
    const raw = model.raw.get(field.name) ?? initialRaw(field);
    const problem = rawProblem(field, raw, model.badInput.has(field.name));
    if (problem !== undefined) model.errors.set(field.name, problem);
  }
}

/**
 * A field's label as the person sees it: its title, else its name; `undefined` for the scalar
 * wrapper of a one-field form, which the question itself labels (as the server's re-ask does).
 */
export function labelOf(
  field: FieldDescriptor,
  fields: readonly FieldDescriptor[],
): string | undefined {
  return fieldLabel(field) ?? (fields.length === 1 ? undefined : field.name);
}

/**
 * A field's problem as a sentence about it, as the CLI says it: "Approve is required.",
 * "Date: expected a date …". Unlabelled (the scalar wrapper, which the question labels), it is
 * "This answer is required.".
 */
export function problemSentence(label: string | undefined, reason: string): string {
  const subject = label ?? 'This answer';
  const sentence = /^(is|must) /.test(reason) ? `${subject} ${reason}` : `${subject}: ${reason}`;
  return /[.?!]$/.test(sentence) ? sentence : `${sentence}.`;
}
