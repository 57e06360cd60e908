import type { ParleyServer } from '@parley/server';

import { createServer as createBookingServer } from './bookFlight.ts';

// #region keys
/** Every replica builds its server the same way, with the same name and the same key ring. */
export function createReplica(
  env: NodeJS.ProcessEnv = process.env,
): ParleyServer {
  const keys = env.REQUEST_STATE_KEY?.split(',').map((key) => key.trim());
  if (keys === undefined || keys.length === 0)
    throw new Error('Set REQUEST_STATE_KEY');

  return createBookingServer({
    name: 'Booking Server', // the audience sealed state is bound to: identical on every replica
    requestStateSecurity: { keys }, // keys[0] seals; every key in the ring opens
  });
}
// #endregion keys
