import { mkdirSync, readFileSync, truncateSync } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

import { logLine, readBookingLog, type LoadedLog } from './bookingLog.ts';
import { byId, newBooking, type Booking, type BookingStore } from './bookingStore.ts';
import { lockStore, type StoreLock } from './storeLock.ts';

export interface FileBookingStoreOptions {
  /** Where to say that a torn last line was dropped; default stderr. */
  warn?: (line: string) => void;
  /**
   * Rewrite the log once it has more than this many lines and most of them are dead (bookings
   * cancelled since). Default 1000.
   */
  compactAfter?: number;
}

/** One change waiting for its turn to be written, and what it does once it is on disk. */
interface Pending {
  text: string;
  apply: () => void;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function readExisting(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
}

/**
 * Bookings of one process, kept in a file across restarts: a log of JSON lines (an `add` or a
 * `remove` per line) read once at start into memory, then only appended to. A change resolves
 * once its line is written and synced to disk, so a booking the tool confirmed survives a crash;
 * changes made while a sync is under way go to disk together in the next one. Ids come from a
 * counter that the log keeps (never reused, even for cancelled bookings).
 *
 * The file serves one process: opening it while another live process holds it throws (see
 * `lockStore`). Several replicas share bookings through Redis instead.
 */
export async function createFileBookingStore(
  file: string,
  options: FileBookingStoreOptions = {},
): Promise<BookingStore> {
  const path = resolve(file);
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const compactAfter = options.compactAfter ?? 1000;
  mkdirSync(dirname(path), { recursive: true });
  const lock = lockStore(path);
  let log: LoadedLog;
  let handle: FileHandle;
  let size: number;
  try {
    const content = readExisting(path);
    log = readBookingLog(path, content);
    if (!log.legacy && log.soundBytes < content.length) {
      warn(
        `booking store: ${path} ended in a torn line (a write cut short); dropped its last ${content.length - log.soundBytes} bytes`,
      );
      truncateSync(path, log.soundBytes);
    }
    if (log.legacy) {
      await rewrite(path, [...log.bookings.values()].sort(byId), log.last);
      log.lines = log.bookings.size + 1;
    }
    handle = await open(path, 'a');
    if (log.needsNewline) await handle.appendFile('\n');
    size = (await handle.stat()).size;
  } catch (error) {
    lock.release();
    throw error;
  }
  return fileStore({ path, log, handle, size, lock, compactAfter, warn });
}

/** Write the bookings as a fresh log beside `path`, sync it, and swap it in. */
async function rewrite(path: string, bookings: Iterable<Booking>, last: number): Promise<void> {
  const draft = `${path}.${process.pid}.compact`;
  let text = logLine({ op: 'counter', last });
  for (const booking of bookings) text += logLine({ op: 'add', booking });
  const file = await open(draft, 'w');
  try {
    await file.writeFile(text);
    await file.datasync();
  } finally {
    await file.close();
  }
  await rename(draft, path);
  // The rename itself is durable once the directory is synced (where a directory can be opened).
  await open(dirname(path), 'r')
    .then(async (dir) => {
      await dir.sync().finally(() => dir.close());
    })
    .catch(() => {});
}

/** An opened log, ready to append to. */
interface OpenedLog {
  path: string;
  log: LoadedLog;
  handle: FileHandle;
  /** The file's size once opened. */
  size: number;
  lock: StoreLock;
  compactAfter: number;
  warn: (line: string) => void;
}

function fileStore(opened: OpenedLog): BookingStore {
  const { path, lock, compactAfter, warn } = opened;
  const { bookings } = opened.log;
  let handle = opened.handle;
  let last = opened.log.last;
  let lines = opened.log.lines;
  /** Bytes known to be whole lines on disk: a write that fails is cut back to here. */
  let size = opened.size;
  let queue: Pending[] = [];
  let writing: Promise<void> | undefined;
  /** Set when the log can no longer be trusted; every later change is refused with it. */
  let broken: Error | undefined;
  let closed = false;
  const removing = new Set<string>();

  function write(text: string, apply: () => void): Promise<void> {
    if (closed) return Promise.reject(new Error(`booking store: ${path} is closed`));
    if (broken !== undefined) return Promise.reject(broken);
    return new Promise<void>((resolve, reject) => {
      queue.push({ text, apply, resolve, reject });
      writing ??= drain();
    });
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        if (broken !== undefined) {
          for (const change of batch) change.reject(broken);
          continue;
        }
        const text = batch.map((change) => change.text).join('');
        try {
          await handle.appendFile(text);
          await handle.datasync();
        } catch (error) {
          const failure = new Error(`booking store: could not write ${path}: ${messageOf(error)}`, {
            cause: error,
          });
          // Cut a half-written batch off, so the next line starts on a line of its own.
          await handle.truncate(size).catch(() => {
            broken = failure;
          });
          for (const change of batch) change.reject(failure);
          continue;
        }
        size += Buffer.byteLength(text);
        lines += batch.length;
        for (const change of batch) {
          change.apply();
          change.resolve();
        }
        if (lines > compactAfter && lines > 2 * (bookings.size + 1)) await compact();
      }
    } finally {
      writing = undefined;
    }
  }

  /** Rewrite the log as the bookings kept, once cancellations have made most of it dead. */
  async function compact(): Promise<void> {
    try {
      await rewrite(path, [...bookings.values()].sort(byId), last);
    } catch (error) {
      // The old log is still whole and still ours: keep appending to it.
      warn(`booking store: could not compact ${path}: ${messageOf(error)}`);
      return;
    }
    const old = handle;
    try {
      handle = await open(path, 'a');
    } catch (error) {
      broken = new Error(`booking store: could not reopen ${path}: ${messageOf(error)}`, {
        cause: error,
      });
      return;
    } finally {
      await old.close().catch(() => {});
    }
    lines = bookings.size + 1;
    size = (await handle.stat()).size;
  }

  return {
    list: async () => [...bookings.values()].sort(byId),
    get: async (id) => bookings.get(id),
    async add(details) {
      const booking = newBooking(++last, details);
      await write(logLine({ op: 'add', booking }), () => bookings.set(booking.id, booking));
      return booking;
    },
    async remove(id) {
      const booking = bookings.get(id);
      // Two cancellations of one booking: only the first removes (and says so).
      if (booking === undefined || removing.has(id)) return undefined;
      removing.add(id);
      try {
        await write(logLine({ op: 'remove', id }), () => bookings.delete(id));
        return booking;
      } finally {
        removing.delete(id);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await writing;
      await handle.close().catch(() => {});
      lock.release();
    },
  };
}
