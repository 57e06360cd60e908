import {
  type ParleyServer,
  type ParleyServerOptions,
} from '@parley/server';
import { createMemoryReplayStore } from '@parley/state-sealing';

import { createServer as createBookingServer } from '../elicitation/bookFlight.ts';

export function createServer(
  keys: string[],
  log = console.error,
): ParleyServer {
  // #region hardened
  const options: Partial<ParleyServerOptions> = {
    name: 'Booking Server',
    requestStateSecurity: {
      keys, // shared by every replica
      ttlSeconds: 300, // a flow must go on within 5 minutes of its last round
      replayStore: createMemoryReplayStore(), // each state opens once (one process; share one across replicas)
      maxTokenBytes: 4096, // refuse to mint bigger state, at mint time
    },
    // Clients only ever see "Invalid or expired requestState"; the reason is for your logs.
    onError: (error, where) =>
      log(`${where.method} ${where.target}: ${String(error)}`),
  };
  // #endregion hardened
  return createBookingServer(options);
}
