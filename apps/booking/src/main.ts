/**
 * Run the booking server: over HTTP on 127.0.0.1 (port from BOOKING_PORT, default 3001), or over
 * stdio with `--stdio`. REQUEST_STATE_KEY is a comma-separated key ring shared by replicas.
 *
 * Where bookings are kept: with REDIS_URL, in that Redis, which every replica shares, together
 * with single use of requestState (REPLAY_WINDOW_MS, ROUND_LEASE_MS), the event store of
 * handshake-era streams and their sessions (a call waiting on a person goes on on another replica
 * when its own restarts). Otherwise with BOOKING_STORE, in that file (a log of JSON lines, kept
 * across restarts) for this one process: a second process on the same file is refused, replicas
 * use Redis. Otherwise in memory. SESSION_ID_PREFIX begins every handshake-era session id this
 * replica issues (for balancers that route sessions by their id).
 */
import { closeOnSignals } from '@parley/server';

import { createMemoryBookingStore, type BookingStore } from './bookingStore.ts';
import { createBookingServer } from './bookingServer.ts';
import { createFileBookingStore } from './fileBookingStore.ts';
import { connectRedis } from './redis.ts';

const setting = (name: string) =>
  process.env[name] === undefined || process.env[name] === '' ? undefined : process.env[name];

const keys = process.env.REQUEST_STATE_KEY?.split(',')
  .map((key) => key.trim())
  .filter(Boolean);
const redisUrl = setting('REDIS_URL');
const redis = redisUrl !== undefined ? await connectRedis(redisUrl) : undefined;
const bookingFile = setting('BOOKING_STORE');
if (redis !== undefined && bookingFile !== undefined) {
  process.stderr.write(
    'booking: REDIS_URL is set, so bookings go to Redis and BOOKING_STORE is unused\n',
  );
}
let store: BookingStore;
try {
  store =
    redis?.bookings ??
    (bookingFile !== undefined
      ? await createFileBookingStore(bookingFile)
      : createMemoryBookingStore());
} catch (error) {
  // A file held by another process (or damaged) is a setting to change: one line that says so.
  process.stderr.write(`booking: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
// A replica's own prefix for handshake-era session ids (booking1., …): a balancer that cannot
// learn stickiness (nginx, Caddy) routes a session back to its replica by it.
const prefix = setting('SESSION_ID_PREFIX');
const sessionIdPrefix = prefix === undefined ? {} : { sessionIdPrefix: prefix };
const milliseconds = (name: string) =>
  process.env[name] === undefined ? undefined : Number(process.env[name]);
const server = createBookingServer({
  store,
  ...(keys !== undefined ? { keys } : {}),
  ...(redis !== undefined
    ? {
        singleUse: {
          store: redis.singleUse,
          replayWindowMs: milliseconds('REPLAY_WINDOW_MS'),
          roundLeaseMs: milliseconds('ROUND_LEASE_MS'),
        },
        serverOptions: {
          http: {
            eventStore: redis.eventStore,
            sessionStore: redis.sessionStore,
            ...sessionIdPrefix,
          },
        },
      }
    : { serverOptions: { http: { ...sessionIdPrefix } } }),
});

if (process.argv.includes('--stdio')) {
  await server.run({ transport: 'stdio' });
} else {
  const port = Number(process.env.BOOKING_PORT ?? 3001);
  const running = await server.run({ transport: 'http', port }).catch((error: unknown) => {
    // A port in use is a setting to change, not a crash: one line that says which.
    if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error;
    process.stderr.write(`booking: port ${port} is in use; set BOOKING_PORT to a free port\n`);
    process.exit(1);
  });
  process.stderr.write(`booking: serving ${running.url}\n`);
  // SIGTERM or SIGINT: drain (readiness 503, in-flight calls finish), then exit.
  closeOnSignals(running);
}
