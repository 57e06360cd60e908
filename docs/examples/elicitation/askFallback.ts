import { ParleyServer, ToolResult, elicitRequest } from '@parley/server';
import * as z from 'zod';

// #region serverDefault
export function createServer(): ParleyServer {
  const mcp = new ParleyServer({
    name: 'Travel Server',
    // Tools whose asks a client cannot answer take the answers as arguments instead.
    askFallback: 'arguments',
  });
  // #endregion serverDefault

  // #region declare
  // One ask value, declared for the listing and asked by the handler.
  const askCity = elicitRequest(
    'Which city?',
    z.object({ city: z.string().min(2).meta({ title: 'City' }) }),
  );
  const askNights = elicitRequest(
    'How many nights?',
    z.number().int().min(1),
    {
      responseTitle: 'Nights',
    },
  );

  mcp.tool(
    'plan_trip',
    {
      description: 'Plan a trip',
      asks: { city: askCity, nights: askNights },
    },
    async (_args, ctx) => {
      const city = await ctx.ask('city', askCity);
      if (city.action !== 'accept') return 'No trip.';
      const nights = await ctx.ask('nights', askNights);
      if (nights.action !== 'accept') return 'No trip.';
      return `${nights.data} nights in ${city.data.city}.`;
    },
  );
  // #endregion declare

  // #region confirmation
  // A yes/no is never taken from arguments: a model could answer it without the user.
  const askDelete = elicitRequest('Delete every trip?', Boolean, {
    responseTitle: 'Delete them',
  });
  mcp.tool(
    'delete_trips',
    { asks: { confirm: askDelete } },
    async (_args, ctx) => {
      const answer = await ctx.ask('confirm', askDelete);
      return answer.action === 'accept' && answer.data
        ? 'Deleted.'
        : 'Kept.';
    },
  );

  // Unless the ask says the model may give it (the call itself is the user's intent).
  const askBook = elicitRequest('Book it?', Boolean, {
    responseTitle: 'Book',
    modelMayConfirm: true,
  });
  mcp.tool('book_trip', { asks: { book: askBook } }, async (_args, ctx) => {
    const answer = await ctx.ask('book', askBook);
    return answer.action === 'accept' && answer.data
      ? 'Booked.'
      : 'Not booked.';
  });
  // #endregion confirmation

  // #region hide
  // Not listed to a client that cannot ask; a call anyway fails before the handler runs.
  mcp.tool(
    'close_account',
    { asks: { confirm: askDelete }, askFallback: 'hide' },
    async (_args, ctx) => {
      const answer = await ctx.ask('confirm', askDelete);
      return answer.action === 'accept' && answer.data
        ? 'Closed.'
        : 'Kept.';
    },
  );
  // #endregion hide

  // #region custom
  // Anything else: answer for the client, end the call your way, or `undefined` for the error.
  mcp.tool(
    'weekend_trip',
    {
      askFallback: ({ key }) =>
        key === 'nights'
          ? { action: 'accept', content: { value: 2 } }
          : new ToolResult({
              content: [
                {
                  type: 'text',
                  text: 'Open this in a client that can ask you.',
                },
              ],
              isError: true,
            }),
    },
    async (_args, ctx) => {
      const nights = await ctx.ask('nights', askNights);
      return nights.action === 'accept'
        ? `${nights.data} nights.`
        : 'No trip.';
    },
  );
  // #endregion custom

  return mcp;
}
