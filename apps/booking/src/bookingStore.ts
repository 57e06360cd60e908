import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** One booked flight. */
export interface Booking {
  id: string;
  destination: string;
  date: string;
  passenger: string;
  bookedAt: string;
}

/** Where bookings live: in memory, or in a JSON file that several replicas on one host share. */
export interface BookingStore {
  list(): Booking[];
  add(booking: Omit<Booking, 'id' | 'bookedAt'>): Booking;
  remove(id: string): Booking | undefined;
}

/**
 * A small embedded store: with a `path`, every change is written to a JSON file (write to a
 * temporary file, then rename, so a reader never sees half a file); without one, memory only.
 */
export function createBookingStore(path?: string): BookingStore {
  let memory: Booking[] = [];
  const read = (): Booking[] => {
    if (path === undefined) return memory;
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as Booking[];
    } catch {
      return [];
    }
  };
  const write = (bookings: Booking[]): void => {
    if (path === undefined) {
      memory = bookings;
      return;
    }
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(bookings, null, 2));
    renameSync(temporary, path);
  };
  return {
    list: () => read(),
    add(details) {
      const bookings = read();
      const next =
        bookings.reduce((max, booking) => Math.max(max, Number(booking.id.slice(3)) || 0), 0) + 1;
      const booking: Booking = {
        id: `BK-${String(next).padStart(4, '0')}`,
        ...details,
        bookedAt: new Date().toISOString(),
      };
      write([...bookings, booking]);
      return booking;
    },
    remove(id) {
      const bookings = read();
      const found = bookings.find((booking) => booking.id === id);
      if (found !== undefined) write(bookings.filter((booking) => booking.id !== id));
      return found;
    },
  };
}
