import {
  Client,
  RoundsExceededError,
  type ClientTarget,
} from '@parley/client';
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';

/** A guard with a bug: it never reads the answer, so it asks forever. */
export function createServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'Broken Guard' });
  const askAgain = elicitRequest('Are we there yet?', Boolean, {
    responseTitle: 'There yet',
  });
  mcp.tool('are_we_there_yet', () =>
    inputRequired({ inputRequests: { again: askAgain } }),
  );
  return mcp;
}

export async function callWithABound(server: ClientTarget): Promise<void> {
  // #region bound
  await using client = new Client(server, {
    elicitationHandler: () => false,
    maxRounds: 3, // default 10
  });
  await client.connect();

  try {
    await client.callTool('are_we_there_yet');
  } catch (error) {
    if (!(error instanceof RoundsExceededError)) throw error;
    console.log(error.message);
    console.log(
      `unanswered: ${Object.keys(error.data?.lastResult.inputRequests ?? {})}`,
    );
  }
  // #endregion bound
}
