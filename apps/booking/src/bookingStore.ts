/** One booked flight. */
export interface Booking {
  id: string;
  destination: string;
  date: string;
  passenger: string;
  bookedAt: string;
}

/** What a caller books; the store gives the id and the time. */
export type BookingDetails = Omit<Booking, 'id' | 'bookedAt'>;

/**
 * Where bookings live: memory (one process, gone on exit), a log file (one process, kept across
 * restarts: `createFileBookingStore`) or Redis (any number of replicas:
 * `createRedisBookingStore`). Every method settles only once the change is kept: an `add`
 * that resolves is a booking the store has, and one it could not keep rejects.
 */
export interface BookingStore {
  /** Every booking, lowest id first. */
  list(): Promise<Booking[]>;
  get(id: string): Promise<Booking | undefined>;
  add(details: BookingDetails): Promise<Booking>;
  /** The booking removed, or `undefined` if there was none by that id (or another call took it). */
  remove(id: string): Promise<Booking | undefined>;
  /** Let go of what the store holds (the file store's log and lock); the store is not used after. */
  close(): Promise<void>;
}

/** `BK-0001` for booking number 1; numbers past 9999 simply grow a digit. */
export function bookingId(n: number): string {
  return `BK-${String(n).padStart(4, '0')}`;
}

/** The number in a booking id, or `undefined` for anything that is not one. */
export function bookingNumber(id: string): number | undefined {
  const match = /^BK-(\d{4,15})$/.exec(id);
  return match === null ? undefined : Number(match[1]);
}

/** Lowest id first, by number (BK-9999 before BK-10000). */
export function byId(a: Booking, b: Booking): number {
  return (bookingNumber(a.id) ?? 0) - (bookingNumber(b.id) ?? 0);
}

/** A new booking numbered `n`, booked now. */
export function newBooking(n: number, details: BookingDetails): Booking {
  const { destination, date, passenger } = details;
  return { id: bookingId(n), destination, date, passenger, bookedAt: new Date().toISOString() };
}

/** A parsed value that has the shape of a booking (what the file and Redis give back). */
export function isBooking(value: unknown): value is Booking {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.id === 'string' &&
    bookingNumber(record.id) !== undefined &&
    ['destination', 'date', 'passenger', 'bookedAt'].every((key) => typeof record[key] === 'string')
  );
}

/** Bookings in this process only: the default, and what the in-process tests use. */
export function createMemoryBookingStore(): BookingStore {
  const bookings = new Map<string, Booking>();
  let last = 0;
  return {
    list: async () => [...bookings.values()],
    get: async (id) => bookings.get(id),
    async add(details) {
      const booking = newBooking(++last, details);
      bookings.set(booking.id, booking);
      return booking;
    },
    async remove(id) {
      const booking = bookings.get(id);
      bookings.delete(id);
      return booking;
    },
    close: async () => {},
  };
}
