import { Client } from '@parley/client';
import { ParleyServer, elicitRequest } from '@parley/server';
import * as z from 'zod';

export function createServer(): ParleyServer {
  const mcp = new ParleyServer({
    name: 'Trips',
    requestStateSecurity: { allowEphemeralKeys: true },
  });
  mcp.tool('book_trip', async (_args, ctx) => {
    const where = await ctx.ask(
      'destination',
      elicitRequest('Where to?', z.object({ destination: z.string() })),
    );
    return where.action === 'accept'
      ? `Booked ${where.data.destination}`
      : 'Nothing booked';
  });
  return mcp;
}

/** Passes one call through, round by round, the way a proxy would; the final text. */
export async function passThrough(): Promise<string> {
  await using client = new Client(createServer(), {
    mode: 'modern',
    // Declares elicitation to the server; sendRound itself never calls it.
    elicitationHandler: () => ({ action: 'cancel' }),
  });
  await client.connect();
  // #region sendRound
  const asked = await client.sendRound({
    method: 'tools/call',
    params: { name: 'book_trip' },
  });
  // { resultType: 'input_required', inputRequests: { destination: … }, requestState: … }
  const next = await client.sendRound({
    method: 'tools/call',
    params: {
      name: 'book_trip',
      inputResponses: {
        destination: {
          action: 'accept',
          content: { destination: 'Lisbon' },
        },
      },
      requestState: asked.requestState as string | undefined,
    },
  });
  // #endregion sendRound
  const [block] = next.content as { type: string; text: string }[];
  return `${String(asked.resultType)} → ${block?.text ?? '?'}`;
}
