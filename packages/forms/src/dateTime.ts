/**
 * `<input type="datetime-local">` speaks wall-clock time without an offset
 * (`2026-08-01T09:30:15`); a `date-time` field wants RFC 3339 with one, which is what
 * `matchesFormat` in @parley/schema checks (`2026-08-01T09:30:15+02:00`, or `Z`). The person
 * types their own local time, so the answer carries the page's offset at that moment: the
 * instant they meant, written as they saw it.
 */

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** `+02:00`, `-05:30`, or `Z` for UTC: the page's offset east of UTC, in minutes. */
function offsetText(minutesEast: number): string {
  if (minutesEast === 0) return 'Z';
  const sign = minutesEast > 0 ? '+' : '-';
  const absolute = Math.abs(minutesEast);
  return `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/**
 * The RFC 3339 date-time for a `datetime-local` value, or `undefined` when `local` is not one.
 * Seconds are always written (RFC 3339 requires them; the input omits them when they are 0).
 */
export function fromLocalDateTime(local: string): string | undefined {
  const match = LOCAL.exec(local);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match
    .slice(1, 7)
    .map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const wallClock = new Date(year, month - 1, day, hour, minute, second);
  if (Number.isNaN(wallClock.getTime())) return undefined;
  const date = `${match[1]}-${match[2]}-${match[3]}`;
  const time = `${match[4]}:${match[5]}:${pad(second)}`;
  return `${date}T${time}${offsetText(-wallClock.getTimezoneOffset())}`;
}

/**
 * A schema's RFC 3339 `default` as the page's wall-clock time for the input
 * (`YYYY-MM-DDTHH:MM:SS`), or `''` when it is not a date-time the browser can read.
 */
export function toLocalDateTime(rfc3339: string): string {
  const instant = new Date(rfc3339.toUpperCase());
  if (Number.isNaN(instant.getTime())) return '';
  return (
    `${pad(instant.getFullYear(), 4)}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}` +
    `T${pad(instant.getHours())}:${pad(instant.getMinutes())}:${pad(instant.getSeconds())}`
  );
}
