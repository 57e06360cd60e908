import { isBooking, bookingNumber, type Booking } from './bookingStore.ts';

/**
 * The file store's format: JSON lines, one change per line, only ever appended. Reading it back
 * replays the changes; a compaction rewrites it as a `counter` line and one `add` per booking.
 */
export type LogEntry =
  | { op: 'add'; booking: Booking }
  | { op: 'remove'; id: string }
  /** The highest number ever given, so ids are not reused once their lines are compacted away. */
  | { op: 'counter'; last: number };

export function logLine(entry: LogEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/** What a log holds, and how much of the file is sound. */
export interface LoadedLog {
  bookings: Map<string, Booking>;
  /** The highest booking number given so far. */
  last: number;
  /** Lines replayed (a compaction is due when most of them are dead). */
  lines: number;
  /** Bytes of the file that hold whole lines; past this is a torn line, to be cut off. */
  soundBytes: number;
  /** The last sound line has no newline (a write cut short right before it): add one. */
  needsNewline: boolean;
  /** The file was the JSON array the store used to write: to be rewritten as a log. */
  legacy: boolean;
}

const NEWLINE = 0x0a;

function parseEntry(text: string): LogEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  if (entry.op === 'add' && isBooking(entry.booking)) return { op: 'add', booking: entry.booking };
  if (entry.op === 'remove' && typeof entry.id === 'string') return { op: 'remove', id: entry.id };
  if (entry.op === 'counter' && Number.isSafeInteger(entry.last) && (entry.last as number) >= 0) {
    return { op: 'counter', last: entry.last as number };
  }
  return undefined;
}

function apply(log: LoadedLog, entry: LogEntry): void {
  if (entry.op === 'add') {
    log.bookings.set(entry.booking.id, entry.booking);
    log.last = Math.max(log.last, bookingNumber(entry.booking.id) ?? 0);
  } else if (entry.op === 'remove') {
    log.bookings.delete(entry.id);
  } else {
    log.last = Math.max(log.last, entry.last);
  }
}

/** The former format: the whole list as one pretty-printed JSON array. */
function readLegacy(path: string, content: Buffer): LoadedLog {
  let value: unknown;
  try {
    value = JSON.parse(content.toString('utf8'));
  } catch {
    value = undefined;
  }
  if (!Array.isArray(value) || !value.every(isBooking)) {
    throw new Error(
      `booking store: ${path} is neither a booking log nor a JSON array of bookings; move it aside or point BOOKING_STORE elsewhere`,
    );
  }
  const log = emptyLog();
  for (const booking of value) apply(log, { op: 'add', booking });
  return { ...log, legacy: true, soundBytes: content.length };
}

function emptyLog(): LoadedLog {
  return {
    bookings: new Map(),
    last: 0,
    lines: 0,
    soundBytes: 0,
    needsNewline: false,
    legacy: false,
  };
}

/**
 * Replay a log. Bad lines at the very end are a write cut short (a crash before the write was
 * acknowledged): they are left out, and `soundBytes` says where to cut. A bad line with a good
 * one after it is not a torn write but damage, and refused with its line number rather than
 * silently dropping bookings.
 */
export function readBookingLog(path: string, content: Buffer): LoadedLog {
  const start = content.findIndex((byte) => ![0x20, 0x09, 0x0d, NEWLINE].includes(byte));
  if (start !== -1 && content[start] === 0x5b /* [ */) return readLegacy(path, content);

  const log = emptyLog();
  let firstBad: { line: number; offset: number } | undefined;
  let offset = 0;
  let line = 0;
  while (offset < content.length) {
    const newline = content.indexOf(NEWLINE, offset);
    const end = newline === -1 ? content.length : newline;
    const next = newline === -1 ? content.length : newline + 1;
    line++;
    const text = content.subarray(offset, end).toString('utf8').trim();
    const entry = text === '' ? undefined : parseEntry(text);
    if (entry === undefined && text !== '') {
      firstBad ??= { line, offset };
    } else if (entry !== undefined) {
      if (firstBad !== undefined) {
        throw new Error(
          `booking store: ${path} is damaged at line ${firstBad.line} (not a booking log entry, with entries after it); repair or move the file`,
        );
      }
      apply(log, entry);
      log.lines++;
    }
    if (firstBad === undefined) {
      log.soundBytes = next;
      log.needsNewline = newline === -1;
    }
    offset = next;
  }
  return log;
}
