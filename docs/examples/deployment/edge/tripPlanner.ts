// #region planner
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';
import * as z from 'zod';

const askDestination = elicitRequest(
  'Where to?',
  z.object({ destination: z.string().meta({ title: 'Destination' }) }),
);
const askNights = elicitRequest(
  'How many nights?',
  z.object({
    nights: z.number().int().min(1).max(30).meta({ title: 'Nights' }),
  }),
);

interface Trip {
  destination?: string;
  servedBy: string[]; // where each round ran, to show state crossing runtimes
}

export function createTripPlanner(
  keys: string[],
  runtime: string,
): ParleyServer {
  const mcp = new ParleyServer({
    name: 'Trip Planner', // the same everywhere: the audience of sealed state
    requestStateSecurity: { keys }, // the same ring everywhere
    http: { sessions: false }, // serverless: nothing kept between requests
  });
  mcp.tool('plan_trip', { outputSchema: z.string() }, (_args, ctx) => {
    const trip: Trip =
      ctx.requestState === null
        ? { servedBy: [] }
        : (JSON.parse(ctx.requestState) as Trip);
    const servedBy = [...trip.servedBy, runtime];
    if (ctx.inputResponses === null) {
      return inputRequired({
        inputRequests: { destination: askDestination },
        requestState: JSON.stringify({ servedBy }),
      });
    }
    const where = ctx.answer('destination', askDestination);
    if (where?.action === 'accept') {
      return inputRequired({
        inputRequests: { nights: askNights },
        requestState: JSON.stringify({
          destination: where.data.destination,
          servedBy,
        }),
      });
    }
    const nights = ctx.answer('nights', askNights);
    if (nights?.action !== 'accept' || trip.destination === undefined)
      return 'Trip cancelled';
    return `${nights.data.nights} nights in ${trip.destination}; rounds served by ${servedBy.join(', ')}`;
  });
  return mcp;
}
// #endregion planner
