import { LoggingMiddleware, TimingMiddleware } from '@parley/middleware';
import { ParleyServer, elicitRequest, type ParleyServerOptions } from '@parley/server';
import * as z from 'zod';

/**
 * One server, both eras, one code path per tool: each asks with `await ctx.ask(...)`, which
 * sends a real request on a handshake-era connection and, on the modern protocol, ends the round
 * with the question and replays the answer when the handler runs again. No era test anywhere,
 * no per-era branch; both eras end in the same result.
 */

export interface DualEraServerOptions {
  log?: (line: string) => void;
  serverOptions?: Partial<ParleyServerOptions>;
}

const PartySize = z.number().int().min(1).max(12);
const SLOTS = ['18:00', '19:30', '21:00'] as const;

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

  const askParty = elicitRequest('How many people?', PartySize, { responseTitle: 'People' });
  const askSlot = elicitRequest('Which time?', SLOTS, { responseTitle: 'Time' });
  mcp.tool(
    'book_table',
    { description: 'Book a restaurant table: asks how many people and which time.' },
    async (_args, ctx) => {
      const people = await ctx.ask('people', askParty);
      if (people.action !== 'accept') return 'No table booked.';
      const slot = await ctx.ask('slot', askSlot);
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
      const approval = await ctx.ask(
        'approve',
        elicitRequest(`Approve ${amount.toFixed(2)} EUR for '${purpose}'?`, Boolean, {
          responseTitle: 'Approve',
          responseDescription: 'Charge the team budget',
        }),
      );
      const approved = approval.action === 'accept' && approval.data;
      return `Expense of ${amount.toFixed(2)} EUR for '${purpose}' ${approved ? 'approved' : 'rejected'}.`;
    },
  );

  const askName = elicitRequest("What's your name?", String, { responseTitle: 'Name' });
  mcp.tool('greet', { description: 'Greets you by name.' }, async (_args, ctx) => {
    const name = await ctx.ask('name', askName);
    return name.action === 'accept'
      ? `Hello, ${name.data}! (answered over ${ctx.era === 'modern' ? 'the modern protocol' : 'a handshake-era connection'})`
      : 'Hello, stranger!';
  });

  return mcp;
}
