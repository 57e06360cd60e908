import type { FieldDescriptor } from '@parley/schema';

/**
 * The limits a field has, said before the person types ("whole number, 1–10", "at least 2
 * characters"), so the server's refusal is rarely needed. `undefined` when there are none.
 */
export function fieldHint(field: FieldDescriptor): string | undefined {
  switch (field.kind) {
    case 'string':
      return range(field.minLength, field.maxLength, 'character');
    case 'integer':
    case 'number': {
      const bounds = range(field.minimum, field.maximum);
      const kind = field.kind === 'integer' ? 'whole number' : undefined;
      return [kind, bounds].filter((part) => part !== undefined).join(', ') || undefined;
    }
    case 'multi-select': {
      const count = range(field.minItems, field.maxItems, 'option');
      return count === undefined ? undefined : `choose ${count}`;
    }
    case 'boolean':
    case 'single-select':
      return undefined;
  }
}

function range(
  min: number | undefined,
  max: number | undefined,
  noun?: string,
): string | undefined {
  const unit = (count: number): string =>
    noun === undefined ? '' : ` ${noun}${count === 1 ? '' : 's'}`;
  if (min !== undefined && max !== undefined) {
    return min === max ? `exactly ${min}${unit(min)}` : `${min}–${max}${unit(max)}`;
  }
  if (min !== undefined) return `at least ${min}${unit(min)}`;
  if (max !== undefined) return `at most ${max}${unit(max)}`;
  return undefined;
}

/**
 * A note that spells out how a date is written on the wire — `(YYYY-MM-DD)`, `ISO 8601`,
 * `YYYY-MM-DDThh:mm:ssZ` — for whoever types it as text, such as a terminal's prompt.
 */
const WIRE_DATE_NOTE =
  /\s*\([^()]*(?:YYYY-MM-DD|ISO[ -]?8601|RFC[ -]?3339)[^()]*\)|\s*\bYYYY-MM-DD[\w:+.-]*/gi;

/**
 * The field's description as the form shows it. A date or date-time field is a date picker
 * that shows the date in the person's own locale (`08/01/2026` in the US) and writes the wire
 * format itself, so a note saying how to type it (`YYYY-MM-DD`) would contradict what the
 * person sees: it is left out. `undefined` when nothing is left to say.
 */
export function fieldDescription(field: FieldDescriptor): string | undefined {
  const { description } = field;
  if (description === undefined) return undefined;
  const picker =
    field.kind === 'string' && (field.format === 'date' || field.format === 'date-time');
  if (!picker) return description;
  const shown = description.replace(WIRE_DATE_NOTE, '').trim();
  return shown === '' ? undefined : shown;
}
