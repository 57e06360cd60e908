/**
 * The four string formats of the restricted elicitation schema, checked the way JSON Schema
 * defines them. The checks are deliberately forgiving where the RFCs are hard to pin down
 * (email), and exact where a wrong answer would break the author's code (calendar dates).
 */

/** A `format` the spec's `StringSchema` allows. */
export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

export const STRING_FORMATS: readonly StringFormat[] = ['email', 'uri', 'date', 'date-time'];

export function isStringFormat(value: unknown): value is StringFormat {
  return typeof value === 'string' && (STRING_FORMATS as readonly string[]).includes(value);
}

// One `@`, something on each side, no whitespace. Full RFC 5322 is not worth the false refusals.
const EMAIL = /^[^\s@]+@[^\s@]+$/;
// RFC 3986 absolute URI: a scheme, a colon, then no whitespace.
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 `date-time`: the `T` is required (either case), and so is the offset.
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= (days[month - 1] ?? 0);
}

function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match || !isCalendarDate(match[1] ?? '')) return false;
  const [hour, minute, second] = [match[2], match[3], match[4]].map(Number) as [
    number,
    number,
    number,
  ];
  // 60 seconds is a leap second, which RFC 3339 allows.
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (match[5] !== undefined && (Number(match[5]) > 23 || Number(match[6]) > 59)) return false;
  return true;
}

/** Whether `text` is a valid value of `format`. */
export function matchesFormat(format: StringFormat, text: string): boolean {
  switch (format) {
    case 'email':
      return EMAIL.test(text);
    case 'uri':
      return URI.test(text);
    case 'date':
      return isCalendarDate(text);
    case 'date-time':
      return isDateTime(text);
  }
}

/** What a value of `format` looks like, for an error message. */
export function formatExample(format: StringFormat): string {
  switch (format) {
    case 'email':
      return 'an email address such as name@example.com';
    case 'uri':
      return 'an absolute URI such as https://example.com';
    case 'date':
      return 'a date such as 2026-08-01';
    case 'date-time':
      return 'a date-time such as 2026-08-01T09:30:00Z';
  }
}
