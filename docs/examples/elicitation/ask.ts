import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

/** Stands in for a fare API: every call is counted, so the tests can show it runs once per flow. */
export const fares = { lookups: 0 };
function lookUpFare(destination: string): number {
  fares.lookups += 1;
  return 100 + destination.length * 10;
}

// #region asks
const askDestination = elicitRequest(
  'Where would you like to fly?',
  z.object({ destination: z.string().meta({ title: 'Destination' }) }),
);
const askDate = (destination: string) =>
  elicitRequest(
    `When would you like to fly to ${destination}?`,
    z.object({ date: z.iso.date().meta({ title: 'Date' }) }),
  );
// #endregion asks

export function createServer(
  options: Partial<ParleyServerOptions> = {},
  log: (line: string) => void = console.log,
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Booking Server', ...options });

  // #region bookFlight
  mcp.tool('book_flight', async (_args, ctx) => {
    const where = await ctx.ask('destination', askDestination);
    if (where.action !== 'accept') return 'Booking cancelled.';
    const { destination } = where.data;

    // Work between questions: once per flow, replayed from the sealed state after that.
    const fare = await ctx.remember('fare', () => lookUpFare(destination));

    const when = await ctx.ask('date', askDate(destination));
    if (when.action !== 'accept') return 'Booking cancelled.';
    return `Booked ${destination} on ${when.data.date} for €${fare}`;
  });
  // #endregion bookFlight

  // #region reentry
  mcp.tool('trace_flight', async (_args, ctx) => {
    log(`run ${ctx.round}`);
    const where = await ctx.ask('destination', askDestination);
    if (where.action !== 'accept') return 'Booking cancelled.';
    const when = await ctx.ask('date', askDate(where.data.destination));
    // Replayed: answered on an earlier run. The last answer is this run's own.
    log(
      `run ${ctx.round} got its answers; replayed: [${ctx.replayed.join(', ')}]`,
    );
    return when.action === 'accept'
      ? `Booked for ${when.data.date}`
      : 'No date';
  });
  // #endregion reentry

  // #region askAll
  mcp.tool('plan_trip', async (_args, ctx) => {
    // Both questions in one round (one after another on the handshake era).
    const { from, to } = await ctx.askAll({
      from: elicitRequest('Flying from?', String, {
        responseTitle: 'From',
      }),
      to: elicitRequest('Flying to?', String, { responseTitle: 'To' }),
    });
    if (from.action !== 'accept' || to.action !== 'accept')
      return 'No trip';
    return `${from.data} → ${to.data}`;
  });
  // #endregion askAll

  // #region prompt
  mcp.prompt('trip_summary', async (_args, ctx) => {
    const where = await ctx.ask('destination', askDestination);
    return where.action === 'accept'
      ? `Summarize a trip to ${where.data.destination}.`
      : 'Summarize a trip anywhere.';
  });
  // #endregion prompt

  // #region resource
  mcp.resource(
    'fares://today',
    { name: 'todays-fares', mimeType: 'text/plain' },
    async (_uri, ctx) => {
      const currency = await ctx.ask(
        'currency',
        elicitRequest('In which currency?', ['EUR', 'USD'], {
          responseTitle: 'Currency',
        }),
      );
      const code = currency.action === 'accept' ? currency.data : 'EUR';
      return `Lisbon: ${lookUpFare('Lisbon')} ${code}`;
    },
  );
  // #endregion resource

  // #region resourceTemplate
  mcp.resourceTemplate(
    'fares://{destination}',
    { name: 'fare', mimeType: 'text/plain' },
    async (_uri, { destination }, ctx) => {
      const currency = await ctx.ask(
        'currency',
        elicitRequest('In which currency?', ['EUR', 'USD'], {
          responseTitle: 'Currency',
        }),
      );
      const code = currency.action === 'accept' ? currency.data : 'EUR';
      return `${String(destination)}: ${lookUpFare(String(destination))} ${code}`;
    },
  );
  // #endregion resourceTemplate

  // #region swallowed
  mcp.tool('swallow', async (_args, ctx) => {
    try {
      const name = await ctx.ask(
        'name',
        elicitRequest('Name?', String, { responseTitle: 'Name' }),
      );
      return name.action === 'accept' ? name.data : 'anonymous';
    } catch {
      // Wrong: on the modern era this also catches the round's suspension.
      return 'anonymous';
    }
  });
  // #endregion swallowed

  // #region budget
  mcp.tool('fetch_report', async (_args, ctx) => {
    // Wrong: a whole document in the sealed state, which travels on every round.
    const report = await ctx.remember('report', () => 'x'.repeat(10_000));
    const ok = await ctx.ask(
      'ok',
      elicitRequest('Send the report?', Boolean, { responseTitle: 'Send' }),
    );
    return ok.action === 'accept' && ok.data ? report.slice(0, 10) : 'Kept';
  });
  // #endregion budget

  return mcp;
}
