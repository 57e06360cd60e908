import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

// #region responseType
const Booking = z.object({
  name: z.string().min(1).describe('Name for the booking'),
  partySize: z.number().int().min(1).max(12).default(2),
  seating: z.enum(['inside', 'terrace']).meta({
    optionTitles: { inside: 'Inside', terrace: 'On the terrace' },
  }),
  email: z.email().optional(),
});

type Booking = z.output<typeof Booking>;
// #endregion responseType

const confirm = (booking: Booking): string =>
  `Table for ${booking.partySize} (${booking.seating}), booked for ${booking.name}`;

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Bistro', ...options });

  // #region ask
  mcp.tool('book_table', async (_args, ctx) => {
    const message = 'Who is the table for?';
    if (ctx.era === 'handshake') {
      const result = await ctx.elicit(message, Booking);
      return result.action === 'accept'
        ? confirm(result.data)
        : 'Not booked';
    }
    const ask = elicitRequest(message, Booking);
    const result = ctx.answer('booking', ask); // typed: Booking
    if (result === undefined) {
      return inputRequired({ inputRequests: { booking: ask } });
    }
    return result.action === 'accept' ? confirm(result.data) : 'Not booked';
  });
  // #endregion ask

  // #region parameters
  mcp.tool(
    'free_tables',
    {
      inputSchema: z.object({
        seats: z.number().int().min(1).max(12),
        terrace: z.boolean().default(false),
      }),
    },
    ({ seats, terrace }) =>
      `3 tables for ${seats}${terrace ? ' on the terrace' : ''}`,
  );
  // #endregion parameters

  return mcp;
}
