import { LoggingMiddleware, TimingMiddleware } from '@parley/middleware';
import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  isModernVersion,
  type Context,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

/**
 * One server, both eras, no bridge: each tool branches on the negotiated protocol version. On a
 * handshake connection it asks with `await ctx.elicit()`; on a modern request it returns
 * `inputRequired(...)` and reads the answers on the next round. Both paths end in the same result.
 */

export interface DualEraServerOptions {
  log?: (line: string) => void;
  serverOptions?: Partial<ParleyServerOptions>;
}

const PartySize = z.number().int().min(1).max(12);
const SLOTS = ['18:00', '19:30', '21:00'] as const;
const partyQuestion = 'How many people?';
const slotQuestion = 'Which time?';

/** True when this request can only ask by returning an ask (the guard pattern). */
const usesGuardPattern = (ctx: Context): boolean =>
  isModernVersion(ctx.requestContext.protocolVersion);

function tableBooked(people: number, slot: string): string {
  return `Table for ${people} at ${slot} (reference T-${people}-${slot.replace(':', '')})`;
}

export function createDualEraServer(options: DualEraServerOptions = {}): ParleyServer {
  const mcp = new ParleyServer({
    name: 'Dual-Era Server',
    version: '1.0.0',
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

  const askParty = elicitRequest(partyQuestion, PartySize, { responseTitle: 'People' });
  const askSlot = elicitRequest(slotQuestion, SLOTS, { responseTitle: 'Time' });
  mcp.tool(
    'book_table',
    { description: 'Book a restaurant table: asks how many people and which time.' },
    async (_args, ctx) => {
      if (usesGuardPattern(ctx)) {
        const people = ctx.answer('people', askParty);
        const slot = ctx.answer('slot', askSlot);
        if (people === undefined || slot === undefined)
          return inputRequired({ inputRequests: { people: askParty, slot: askSlot } });
        if (people.action !== 'accept' || slot.action !== 'accept') return 'No table booked.';
        return tableBooked(people.data, slot.data);
      }
      const people = await ctx.elicit(partyQuestion, PartySize, { responseTitle: 'People' });
      if (people.action !== 'accept') return 'No table booked.';
      const slot = await ctx.elicit(slotQuestion, SLOTS, { responseTitle: 'Time' });
      if (slot.action !== 'accept') return 'No table booked.';
      return tableBooked(people.data, slot.data);
    },
  );

  mcp.tool(
    'approve_expense',
    {
      description: 'Approve an expense after the user confirms.',
      inputSchema: { amount: z.number().positive(), purpose: z.string().min(1) },
    },
    async ({ amount, purpose }, ctx) => {
      const question = `Approve ${amount.toFixed(2)} EUR for '${purpose}'?`;
      const labels = { responseTitle: 'Approve', responseDescription: 'Charge the team budget' };
      const approval = usesGuardPattern(ctx)
        ? ctx.answer('approve', elicitRequest(question, Boolean, labels))
        : await ctx.elicit(question, Boolean, labels);
      if (approval === undefined)
        return inputRequired({
          inputRequests: { approve: elicitRequest(question, Boolean, labels) },
        });
      const approved = approval.action === 'accept' && approval.data;
      return `Expense of ${amount.toFixed(2)} EUR for '${purpose}' ${approved ? 'approved' : 'rejected'}.`;
    },
  );

  const askName = elicitRequest("What's your name?", String, { responseTitle: 'Name' });
  mcp.tool('greet', { description: 'Greets you by name.' }, async (_args, ctx) => {
    const name = usesGuardPattern(ctx)
      ? ctx.answer('name', askName)
      : await ctx.elicit("What's your name?", String, { responseTitle: 'Name' });
    if (name === undefined) return inputRequired({ inputRequests: { name: askName } });
    return name.action === 'accept'
      ? `Hello, ${name.data}! (answered over ${ctx.era === 'modern' ? 'the modern protocol' : 'a handshake-era connection'})`
      : 'Hello, stranger!';
  });

  return mcp;
}
