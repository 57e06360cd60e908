import { LoggingMiddleware, TimingMiddleware } from '@parley/middleware';
import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
  type SingleUseStore,
} from '@parley/server';
import * as z from 'zod';

import { createMemoryBookingStore, type BookingStore } from './bookingStore.ts';

/**
 * The booking server of the seeds, grown into a small service. Every tool asks with
 * `await ctx.ask(...)`, written once for both eras: a real request on handshake-era connections,
 * sealed replay on the modern protocol (the handler runs again each round; answers already given
 * come back at once, and the first question without one ends the round).
 *
 * It also works in hosts that cannot ask the user (no elicitation, like the MCP Inspector's CLI):
 * the server's `askFallback: 'arguments'` turns each declared ask into optional arguments for
 * such clients, and the tools that only make sense with the user's own yes are hidden there.
 */

export interface BookingServerOptions {
  /** Where bookings are kept; default memory (this process only). */
  store?: BookingStore;
  /** A shared key ring, so several replicas can serve the rounds of one flow. */
  keys?: string[];
  /**
   * Single use of `requestState` (a store every replica shares, such as Redis), with its
   * replay window and round lease.
   */
  singleUse?: { store: SingleUseStore; replayWindowMs?: number; roundLeaseMs?: number };
  /** Middleware output (one line per round); default stderr. */
  log?: (line: string) => void;
  serverOptions?: Partial<ParleyServerOptions>;
}

const askDestination = elicitRequest(
  'Where would you like to fly?',
  z.object({
    destination: z.string().min(2).describe('City or airport').meta({ title: 'Destination' }),
  }),
);
const askDate = (destination: string) =>
  elicitRequest(
    `When would you like to fly to ${destination}?`,
    z.object({
      date: z.iso.date().describe('Departure date (YYYY-MM-DD)').meta({ title: 'Date' }),
    }),
  );
const askPassenger = (destination: string, date: string) =>
  elicitRequest(
    `Book a flight to ${destination} on ${date}? Who is travelling?`,
    z.object({
      passenger: z
        .string()
        .min(1)
        .describe('Full name as on the passport')
        .meta({ title: 'Passenger' }),
      confirm: z.boolean().default(true).describe('Book this flight').meta({ title: 'Book it' }),
    }),
    // Where the client cannot ask, the model may pass `confirm`: calling book_flight with a
    // destination, a date and a passenger is the booking the user asked for, and it can be
    // cancelled. (cancel_booking, which cannot be undone, is hidden from such clients instead.)
    { modelMayConfirm: true },
  );

const priorities = {
  low: { title: 'Low — whenever' },
  medium: { title: 'Medium — this week' },
  high: { title: 'High — today' },
};

export function createBookingServer(options: BookingServerOptions = {}): ParleyServer {
  const store = options.store ?? createMemoryBookingStore();
  const mcp = new ParleyServer({
    name: 'Booking Server',
    version: '1.0.0',
    instructions: 'Books flights and plans small things, asking the user for what it needs.',
    // Hosts that draw MCP Apps but cannot ask (most chat apps) get Parley's App for the form;
    // clients that can neither ask nor draw Apps: the declared asks become optional arguments.
    askRoutes: ['elicitation', 'app'],
    askFallback: 'arguments',
    requestStateSecurity: {
      ...(options.keys !== undefined && options.keys.length > 0 ? { keys: options.keys } : {}),
      ...(options.singleUse !== undefined
        ? {
            singleUse: options.singleUse.store,
            ...(options.singleUse.replayWindowMs !== undefined
              ? { replayWindowMs: options.singleUse.replayWindowMs }
              : {}),
            ...(options.singleUse.roundLeaseMs !== undefined
              ? { roundLeaseMs: options.singleUse.roundLeaseMs }
              : {}),
          }
        : {}),
    },
    ...options.serverOptions,
  });
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  mcp.use(
    new LoggingMiddleware({ log }),
    new TimingMiddleware({
      onRound: () => {},
      onFlow: (timing) => log(`[timing] ${JSON.stringify(timing)}`),
    }),
  );

  mcp.tool(
    'book_flight',
    {
      description: 'Book a flight: asks where, when, and who travels (three rounds).',
      asks: {
        destination: askDestination,
        date: askDate('the destination'),
        passenger: askPassenger('the destination', 'the date'),
      },
    },
    async (_args, ctx) => {
      const where = await ctx.ask('destination', askDestination);
      if (where.action !== 'accept') return 'Booking cancelled.';
      const { destination } = where.data;
      const when = await ctx.ask('date', askDate(destination));
      if (when.action !== 'accept') return 'Booking cancelled.';
      const { date } = when.data;
      const who = await ctx.ask('passenger', askPassenger(destination, date));
      if (who.action !== 'accept' || !who.data.confirm) return 'Booking cancelled.';
      // After the last question: runs once per flow, on either era. A booking the store could
      // not keep is the tool's error, never "Booked".
      const booking = await store
        .add({ destination, date, passenger: who.data.passenger })
        .catch((error: unknown) => {
          throw new Error(`Not booked: ${error instanceof Error ? error.message : String(error)}`, {
            cause: error,
          });
        });
      return `Booked ${booking.id}: ${booking.passenger} to ${booking.destination} on ${booking.date}`;
    },
  );

  mcp.tool('list_bookings', { description: 'List the booked flights.' }, async () => {
    const bookings = await store.list();
    if (bookings.length === 0) return 'No bookings.';
    return bookings
      .map(
        (booking) =>
          `${booking.id}: ${booking.passenger} to ${booking.destination} on ${booking.date}`,
      )
      .join('\n');
  });

  const askCancel = (id: string) =>
    elicitRequest(`Cancel booking ${id}?`, Boolean, { responseTitle: 'Cancel it' });
  mcp.tool(
    'cancel_booking',
    {
      description: 'Cancel a booking, after the user confirms.',
      inputSchema: { id: z.string().describe('Booking id, e.g. BK-0001') },
      // Only the user may confirm a cancellation: not listed to a client that cannot ask them.
      asks: { confirm: askCancel('the booking') },
      askFallback: 'hide',
    },
    async ({ id }, ctx) => {
      if ((await store.get(id)) === undefined) return `No booking ${id}.`;
      const answer = await ctx.ask('confirm', askCancel(id));
      if (answer.action !== 'accept' || !answer.data) return `Booking ${id} kept.`;
      // Cancelled meanwhile (by another call, on any replica): say so, not "Cancelled".
      if ((await store.remove(id)) === undefined) return `No booking ${id}.`;
      return `Cancelled ${id}.`;
    },
  );

  // Three questions in one round: ctx.askAll asks them together.
  const meetingAsks = {
    title: elicitRequest("What's the meeting title?", String, { responseTitle: 'Title' }),
    duration: elicitRequest('Duration in minutes?', z.number().int().min(5).max(480), {
      responseTitle: 'Minutes',
    }),
    urgent: elicitRequest('Is this urgent?', ['yes', 'no'], { responseTitle: 'Urgent' }),
  };
  mcp.tool(
    'plan_meeting',
    { description: 'Plan a meeting: title, duration and urgency.', asks: meetingAsks },
    async (_args, ctx) => {
      const { title, duration, urgent } = await ctx.askAll(meetingAsks);
      if (title.action !== 'accept' || duration.action !== 'accept' || urgent.action !== 'accept') {
        return 'Meeting planning cancelled';
      }
      return `Meeting '${title.data}' for ${duration.data} minutes (Urgent: ${urgent.data === 'yes'})`;
    },
  );

  const askPriority = elicitRequest('What priority level?', priorities, {
    responseTitle: 'Priority',
  });
  mcp.tool(
    'set_priority',
    {
      description: 'Pick a priority (single select, titled options).',
      asks: { priority: askPriority },
    },
    async (_args, ctx) => {
      const answer = await ctx.ask('priority', askPriority);
      return answer.action === 'accept' ? `Priority set to: ${answer.data}` : 'No priority set';
    },
  );

  const askTags = elicitRequest('Choose tags', [['bug', 'feature', 'documentation']], {
    responseTitle: 'Tags',
  });
  mcp.tool(
    'select_tags',
    { description: 'Pick tags (multi-select).', asks: { tags: askTags } },
    async (_args, ctx) => {
      const answer = await ctx.ask('tags', askTags);
      return answer.action === 'accept'
        ? `Selected tags: ${answer.data.join(', ') || '(none)'}`
        : 'No tags';
    },
  );

  const askTask = elicitRequest(
    'Please provide task details',
    z.object({
      title: z.string().min(1).describe('Task title').meta({ title: 'Title' }),
      description: z
        .string()
        .default('')
        .describe('Task description')
        .meta({ title: 'Description' }),
      priority: z
        .enum(['low', 'medium', 'high'])
        .default('medium')
        .describe('Task priority')
        .meta({ title: 'Priority', optionTitles: { low: 'Low', medium: 'Medium', high: 'High' } }),
    }),
  );
  mcp.tool(
    'create_task',
    { description: 'Create a task (a structured answer with defaults).', asks: { task: askTask } },
    async (_args, ctx) => {
      const answer = await ctx.ask('task', askTask);
      if (answer.action !== 'accept') return 'Task creation cancelled';
      return `Created task: ${answer.data.title} (Priority: ${answer.data.priority})`;
    },
  );

  const askPurchase = elicitRequest('Buy 1x Baguette?', Boolean, {
    responseTitle: 'Confirm purchase',
    responseDescription: 'Approve this transaction?',
  });
  mcp.tool(
    'confirm_purchase',
    {
      description: 'A confirmation with a custom label.',
      asks: { purchase: askPurchase },
      askFallback: 'hide',
    },
    async (_args, ctx) => {
      const answer = await ctx.ask('purchase', askPurchase);
      if (answer.action !== 'accept') return 'No response';
      return answer.data ? 'Purchased' : 'Declined';
    },
  );

  return mcp;
}
