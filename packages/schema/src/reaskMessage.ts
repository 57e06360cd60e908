import type { FieldDescriptor } from './fieldDescriptor.ts';
import { WRAPPER_FIELD } from './compileResponseType.ts';

/**
 * The words of a re-ask, in one place: the server writes them when an answer does not fit
 * (`reaskMessage`), and a form reads them back (`readReask`) to show the reason on the field it
 * names, so the two cannot drift apart. Each field's reasons are `fieldValueProblem`'s.
 */

/** The sentence a re-asked question's message carries before the reason. */
export const REASK_SENTENCE = 'Your last answer could not be used.';

const SEPARATOR = `\n\n${REASK_SENTENCE} `;

/** The label a person saw for a field: its title, else its name (never the scalar wrapper). */
export function fieldLabel(field: Pick<FieldDescriptor, 'name' | 'title'>): string | undefined {
  return field.title ?? (field.name === WRAPPER_FIELD ? undefined : field.name);
}

/**
 * A question's message asked again: the original, then what was wrong (`reason`, already
 * labelled with the field as the person saw it, e.g. `Tickets: must be at least 1, got 0`).
 */
export function reaskMessage(message: string, reason: string): string {
  return `${message}${SEPARATOR}${reason}.`;
}

/** A re-ask read back from its message. */
export interface ReaskNotice {
  /** The question as first asked. */
  message: string;
  /** What was wrong, without the field's label when `field` names it. */
  reason: string;
  /** The field at fault, when the reason names one of `fields` (or there is only one). */
  field?: string;
}

/** The re-ask in `message`, or `undefined` when the message is a first asking. */
export function readReask(
  message: string,
  fields: readonly Pick<FieldDescriptor, 'name' | 'title'>[],
): ReaskNotice | undefined {
  const at = message.lastIndexOf(SEPARATOR);
  let original: string;
  let rest: string;
  if (at >= 0) {
    original = message.slice(0, at);
    rest = message.slice(at + SEPARATOR.length);
  } else if (message.startsWith(`${REASK_SENTENCE} `)) {
    original = '';
    rest = message.slice(REASK_SENTENCE.length + 1);
  } else {
    return undefined;
  }
  const reason = rest.endsWith('.') ? rest.slice(0, -1) : rest;
  // The longest label first, so "Return date" wins over "Return" for "Return date: …".
  const labelled = fields
    .map((field) => ({ field, label: fieldLabel(field) }))
    .filter(
      (entry): entry is { field: typeof entry.field; label: string } => entry.label !== undefined,
    )
    .sort((a, b) => b.label.length - a.label.length)
    .find((entry) => reason.startsWith(`${entry.label}: `));
  if (labelled !== undefined) {
    return {
      message: original,
      reason: reason.slice(labelled.label.length + 2),
      field: labelled.field.name,
    };
  }
  if (fields.length === 1) {
    return { message: original, reason: uncapitalised(reason), field: fields[0]!.name };
  }
  return { message: original, reason };
}

/** The server capitalises a reason that starts its sentence; on a field it reads as a clause. */
function uncapitalised(text: string): string {
  return text.length === 0 ? text : text[0]!.toLowerCase() + text.slice(1);
}
