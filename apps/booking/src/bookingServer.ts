import { LoggingMiddleware, TimingMiddleware } from '@parley/middleware';
import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
  type SingleUseStore,
} from '@parley/server';
import * as z from 'zod';

import { createBookingStore, type BookingStore } from './bookingStore.ts';

/**
 * The booking server of the seeds, grown into a small service. Every tool asks with the guard
 * pattern (the modern protocol); `eraBridge` lets handshake-era clients use them too.
 */

export interface BookingServerOptions {
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
  );

/** What `book_flight` carries from round to round (sealed by Parley, never visible to the client). */
const FlightState = z.object({ destination: z.string(), date: z.string().optional() });
type FlightState = z.infer<typeof FlightState>;
const readState = (state: string | null): FlightState | undefined =>
  state === null ? undefined : FlightState.parse(JSON.parse(state));

const priorities = {
  low: { title: 'Low — whenever' },
  medium: { title: 'Medium — this week' },
  high: { title: 'High — today' },
};

export function createBookingServer(options: BookingServerOptions = {}): ParleyServer {
  const store = options.store ?? createBookingStore();
  const mcp = new ParleyServer({
    name: 'Booking Server',
    version: '1.0.0',
    instructions: 'Books flights and plans small things, asking the user for what it needs.',
    eraBridge: true,
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
      asks: { destination: askDestination },
    },
    (_args, ctx) => {
      const state = readState(ctx.requestState);
      if (state === undefined) {
        const where = ctx.answer('destination', askDestination);
        if (where === undefined)
          return inputRequired({ inputRequests: { destination: askDestination } });
        if (where.action !== 'accept') return 'Booking cancelled.';
        const destination = where.data.destination;
        return inputRequired({
          inputRequests: { date: askDate(destination) },
          requestState: JSON.stringify({ destination } satisfies FlightState),
        });
      }
      if (state.date === undefined) {
        const when = ctx.answer('date', askDate(state.destination));
        if (when === undefined) {
          return inputRequired({
            inputRequests: { date: askDate(state.destination) },
            requestState: ctx.requestState ?? '',
          });
        }
        if (when.action !== 'accept') return 'Booking cancelled.';
        return inputRequired({
          inputRequests: { passenger: askPassenger(state.destination, when.data.date) },
          requestState: JSON.stringify({ ...state, date: when.data.date } satisfies FlightState),
        });
      }
      const who = ctx.answer('passenger', askPassenger(state.destination, state.date));
      if (who === undefined) {
        return inputRequired({
          inputRequests: { passenger: askPassenger(state.destination, state.date) },
          requestState: ctx.requestState ?? '',
        });
      }
      if (who.action !== 'accept' || !who.data.confirm) return 'Booking cancelled.';
      const booking = store.add({
        destination: state.destination,
        date: state.date,
        passenger: who.data.passenger,
      });
      return `Booked ${booking.id}: ${booking.passenger} to ${booking.destination} on ${booking.date}`;
    },
  );

  mcp.tool('list_bookings', { description: 'List the booked flights.' }, () => {
    const bookings = store.list();
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
    },
    ({ id }, ctx) => {
      if (!store.list().some((booking) => booking.id === id)) return `No booking ${id}.`;
      const answer = ctx.answer('confirm', askCancel(id));
      if (answer === undefined) return inputRequired({ inputRequests: { confirm: askCancel(id) } });
      if (answer.action !== 'accept' || !answer.data) return `Booking ${id} kept.`;
      store.remove(id);
      return `Cancelled ${id}.`;
    },
  );

  // Three questions in one round: the asks of a round form a map.
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
    (_args, ctx) => {
      const title = ctx.answer('title', meetingAsks.title);
      const duration = ctx.answer('duration', meetingAsks.duration);
      const urgent = ctx.answer('urgent', meetingAsks.urgent);
      if (title === undefined || duration === undefined || urgent === undefined) {
        return inputRequired({ inputRequests: meetingAsks });
      }
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
    { description: 'Pick a priority (single select, titled options).' },
    (_args, ctx) => {
      const answer = ctx.answer('priority', askPriority);
      if (answer === undefined) return inputRequired({ inputRequests: { priority: askPriority } });
      return answer.action === 'accept' ? `Priority set to: ${answer.data}` : 'No priority set';
    },
  );

  const askTags = elicitRequest('Choose tags', [['bug', 'feature', 'documentation']], {
    responseTitle: 'Tags',
  });
  mcp.tool('select_tags', { description: 'Pick tags (multi-select).' }, (_args, ctx) => {
    const answer = ctx.answer('tags', askTags);
    if (answer === undefined) return inputRequired({ inputRequests: { tags: askTags } });
    return answer.action === 'accept'
      ? `Selected tags: ${answer.data.join(', ') || '(none)'}`
      : 'No tags';
  });

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
    { description: 'Create a task (a structured answer with defaults).' },
    (_args, ctx) => {
      const answer = ctx.answer('task', askTask);
      if (answer === undefined) return inputRequired({ inputRequests: { task: askTask } });
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
    { description: 'A confirmation with a custom label.' },
    (_args, ctx) => {
      const answer = ctx.answer('purchase', askPurchase);
      if (answer === undefined) return inputRequired({ inputRequests: { purchase: askPurchase } });
      if (answer.action !== 'accept') return 'No response';
      return answer.data ? 'Purchased' : 'Declined';
    },
  );

  return mcp;
}
