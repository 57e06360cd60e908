import type { RedisClient } from '@parley/redis';

import { byId, isBooking, newBooking, type Booking, type BookingStore } from './bookingStore.ts';

export interface RedisBookingStoreOptions {
  /** Put in front of both keys; default `'booking:'`, the app's other Redis keys' prefix. */
  prefix?: string;
  /** How long one command may take before the change fails; default 2000 ms. */
  commandTimeoutMs?: number;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Bookings every replica shares: one hash (`booking:bookings`, id → the booking as JSON) and one
 * counter (`booking:bookings:last-id`) whose INCR gives each booking its number, so two replicas
 * booking at the same moment never get the same id. Nothing is kept in the process: a command
 * that fails (Redis down, too slow) rejects the call, and the tool answers an error instead of a
 * booking that was not kept.
 */
export function createRedisBookingStore(
  client: RedisClient,
  options: RedisBookingStoreOptions = {},
): BookingStore {
  const prefix = options.prefix ?? 'booking:';
  const timeout = options.commandTimeoutMs ?? 2_000;
  const hash = `${prefix}bookings`;
  const counter = `${prefix}bookings:last-id`;

  async function send(args: string[]): Promise<unknown> {
    // A client that is not ready would queue the command or fail it more vaguely.
    if (!client.isReady) throw new Error(`booking store: Redis is not connected (${args[0]})`);
    try {
      return await client.sendCommand(args, { timeout });
    } catch (error) {
      throw new Error(`booking store: Redis ${args[0]} failed: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  const parse = (value: unknown): Booking | undefined => {
    if (typeof value !== 'string') return undefined;
    try {
      const booking: unknown = JSON.parse(value);
      return isBooking(booking) ? booking : undefined;
    } catch {
      return undefined;
    }
  };

  return {
    async list() {
      const reply = await send(['HGETALL', hash]);
      // RESP2 answers a flat [field, value, …] array; RESP3 a map.
      const values =
        reply instanceof Map
          ? [...(reply as Map<unknown, unknown>).values()]
          : Array.isArray(reply)
            ? reply.filter((_, i) => i % 2 === 1)
            : Object.values(reply as object);
      // A field that is not a booking was not written by this store: not listed.
      return values
        .map(parse)
        .filter((booking) => booking !== undefined)
        .sort(byId);
    },
    get: async (id) => parse(await send(['HGET', hash, id])),
    async add(details) {
      const n = Number(await send(['INCR', counter]));
      const booking = newBooking(n, details);
      await send(['HSET', hash, booking.id, JSON.stringify(booking)]);
      return booking;
    },
    async remove(id) {
      const booking = parse(await send(['HGET', hash, id]));
      if (booking === undefined) return undefined;
      // Of two replicas cancelling one booking, only the one whose HDEL removed it says so.
      return Number(await send(['HDEL', hash, id])) === 1 ? booking : undefined;
    },
    // The client belongs to the caller, which closes it.
    close: async () => {},
  };
}
