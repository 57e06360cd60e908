/**
 * Run the booking server: over HTTP on 127.0.0.1 (port from BOOKING_PORT, default 3001), or over
 * stdio with `--stdio`. REQUEST_STATE_KEY is a comma-separated key ring shared by replicas;
 * BOOKING_STORE is the JSON file bookings are kept in (default: memory). With REDIS_URL, the
 * replicas share a Redis: single use of requestState (REPLAY_WINDOW_MS, ROUND_LEASE_MS) and the
 * event store of handshake-era streams. SESSION_ID_PREFIX begins every handshake-era session id
 * this replica issues (for balancers that route sessions by their id).
 */
import { closeOnSignals } from '@parley/server';

import { createBookingStore } from './bookingStore.ts';
import { createBookingServer } from './bookingServer.ts';
import { connectRedis } from './redis.ts';

const keys = process.env.REQUEST_STATE_KEY?.split(',')
  .map((key) => key.trim())
  .filter(Boolean);
const redis =
  process.env.REDIS_URL !== undefined && process.env.REDIS_URL !== ''
    ? await connectRedis(process.env.REDIS_URL)
    : undefined;
// A replica's own prefix for handshake-era session ids (booking1., …): a balancer that cannot
// learn stickiness (nginx, Caddy) routes a session back to its replica by it.
const sessionIdPrefix =
  process.env.SESSION_ID_PREFIX === undefined || process.env.SESSION_ID_PREFIX === ''
    ? {}
    : { sessionIdPrefix: process.env.SESSION_ID_PREFIX };
const milliseconds = (name: string) =>
  process.env[name] === undefined ? undefined : Number(process.env[name]);
const server = createBookingServer({
  store: createBookingStore(process.env.BOOKING_STORE),
  ...(keys !== undefined ? { keys } : {}),
  ...(redis !== undefined
    ? {
        singleUse: {
          store: redis.singleUse,
          replayWindowMs: milliseconds('REPLAY_WINDOW_MS'),
          roundLeaseMs: milliseconds('ROUND_LEASE_MS'),
        },
        serverOptions: { http: { eventStore: redis.eventStore, ...sessionIdPrefix } },
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
