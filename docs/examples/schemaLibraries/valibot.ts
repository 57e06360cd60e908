import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';

// #region responseType
const BookingSchema = v.object({
  name: v.pipe(
    v.string(),
    v.minLength(1),
    v.description('Name for the booking'),
  ),
  partySize: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12)),
    2,
  ),
  seating: v.pipe(
    v.picklist(['inside', 'terrace']),
    v.metadata({
      optionTitles: { inside: 'Inside', terrace: 'On the terrace' },
    }),
  ),
  email: v.optional(v.pipe(v.string(), v.email())),
});

// valibot schemas describe themselves as JSON Schema once wrapped.
const Booking = toStandardJsonSchema(BookingSchema);

type Booking = v.InferOutput<typeof BookingSchema>;
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
      inputSchema: toStandardJsonSchema(
        v.object({
          seats: v.pipe(
            v.number(),
            v.integer(),
            v.minValue(1),
            v.maxValue(12),
          ),
          terrace: v.optional(v.boolean(), false),
        }),
      ),
    },
    ({ seats, terrace }) =>
      `3 tables for ${seats}${terrace ? ' on the terrace' : ''}`,
  );
  // #endregion parameters

  return mcp;
}
