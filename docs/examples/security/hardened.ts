import {
  type ParleyServer,
  type ParleyServerOptions,
  type SingleUseStore,
} from '@parley/server';

import { createServer as createBookingServer } from '../elicitation/bookFlight.ts';

export function createServer(
  keys: string[],
  log = console.error,
  store?: SingleUseStore,
): ParleyServer {
  // #region hardened
  const options: Partial<ParleyServerOptions> = {
    name: 'Booking Server',
    requestStateSecurity: {
      keys, // shared by every replica
      ttlMs: 300_000, // a flow must go on within 5 minutes of its last round
      singleUse: true, // each state is spent by the round that completes with it
      replayWindowMs: 60_000, // a retry within a minute gets the same answer again
      maxTokenBytes: 4096, // refuse to mint bigger state, at mint time
    },
    // Clients only ever see "Invalid or expired requestState"; the reason is for your logs.
    onError: (error, where) =>
      log(`${where.method} ${where.target}: ${String(error)}`),
  };
  // #endregion hardened
  if (store !== undefined) options.requestStateSecurity!.singleUse = store;
  return createBookingServer(options);
}
