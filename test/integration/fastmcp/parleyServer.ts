/**
 * A Parley server that asks every kind of question FastMCP's elicitation docs describe, for
 * FastMCP's Python client to answer (python/client.py). It is written once for both eras with
 * `ctx.ask`, except `book_flight`, the guard pattern written out (modern era only). Each tool
 * returns, as JSON, what the answer became on this side: `{ action, data }`.
 */
import * as z from 'zod';

import {
  ParleyServer,
  elicitRequest,
  elicitUrlRequest,
  inputRequired,
  rootsRequest,
  sampleRequest,
  type ElicitationResult,
  type ParleyServerOptions,
} from '@parley/server';

function arrived(result: ElicitationResult<unknown>): string {
  return JSON.stringify(
    result.action === 'accept'
      ? { action: 'accept', data: result.data }
      : { action: result.action },
  );
}

const titled = {
  low: { title: 'Low Priority' },
  medium: { title: 'Medium Priority' },
  high: { title: 'High Priority' },
};

/** One question per tool: name, message, response type, label options. */
const singleAsks = {
  get_user_name: elicitRequest("What's your name?", String),
  pick_a_number: elicitRequest('Pick a number!', z.number().int()),
  pick_a_boolean: elicitRequest('True or false?', Boolean),
  confirm_purchase: elicitRequest('Buy 1x Baguette?', Boolean, {
    responseTitle: 'Confirm purchase',
    responseDescription: 'Approve this transaction?',
  }),
  approve_action: elicitRequest('Approve this action?', null),
  set_priority: elicitRequest('What priority level?', ['low', 'medium', 'high']),
  set_priority_titled: elicitRequest('What priority level?', titled),
  select_tags: elicitRequest('Choose tags', [['bug', 'feature', 'documentation']]),
  select_priorities: elicitRequest('Choose priorities', [titled]),
  collect_user_info: elicitRequest(
    'Please provide your information',
    z.object({ name: z.string(), age: z.number().int() }),
  ),
  create_task: elicitRequest(
    'Please provide task details',
    z.object({
      title: z.string().describe('Task title'),
      description: z.string().default('').describe('Task description'),
      priority: z.enum(['low', 'medium', 'high']).default('medium').describe('Task priority'),
    }),
  ),
  connect_account: elicitUrlRequest('Sign in to Example', 'https://auth.example.com/connect'),
};

const askDestination = elicitRequest(
  'Where would you like to fly?',
  z.object({ destination: z.string() }),
);
const askDate = (to: string) =>
  elicitRequest(`When would you like to fly to ${to}?`, z.object({ date: z.string() }));
const askQuarter = elicitRequest('Which quarter should the summary cover?', String);

/** `options` are added to the server's own (the proxy tests serve it without HTTP sessions). */
export function createPeerServer(options: Partial<ParleyServerOptions> = {}): ParleyServer {
  const mcp = new ParleyServer({
    name: 'Parley Elicitation Peer',
    version: '1.0.0',
    onError: () => {},
    // The wrappers keep FastMCP's unlabelled "value" field on purpose; the lint is not under test.
    onWarning: () => {},
    // One process per transport: its own key is meant (and silences the warning about it).
    requestStateSecurity: { allowEphemeralKeys: true },
    ...options,
  });

  for (const [name, ask] of Object.entries(singleAsks)) {
    mcp.tool(name, async (_args, ctx) => arrived(await ctx.ask('answer', ask)));
  }

  mcp.tool('plan_meeting', async (_args, ctx) => {
    const title = await ctx.ask('title', elicitRequest("What's the meeting title?", String));
    if (title.action !== 'accept') return 'Meeting planning cancelled';
    const minutes = await ctx.ask('minutes', elicitRequest('Duration in minutes?', z.number()));
    if (minutes.action !== 'accept') return 'Meeting planning cancelled';
    const urgent = await ctx.ask('urgent', elicitRequest('Is this urgent?', ['yes', 'no']));
    if (urgent.action !== 'accept') return 'Meeting planning cancelled';
    return `Meeting '${title.data}' for ${minutes.data} minutes (Urgent: ${urgent.data === 'yes'})`;
  });

  mcp.tool('survey_workspace', async (_args, ctx) => {
    const { purpose, roots, summary } = await ctx.askAll({
      purpose: elicitRequest('What are you working on?', String, { responseTitle: 'Purpose' }),
      roots: rootsRequest(),
      summary: sampleRequest('Summarize this workspace in one sentence.', { maxTokens: 50 }),
    });
    const text = summary.content;
    return JSON.stringify({
      purpose: purpose.action === 'accept' ? purpose.data : null,
      roots: roots.map((root) => root.uri),
      summary: !Array.isArray(text) && text.type === 'text' ? text.text : null,
      round: ctx.round,
    });
  });

  // The guard pattern written out: the modern era only (Parley's era gate refuses it otherwise).
  mcp.tool('book_flight', (_args, ctx) => {
    if (ctx.requestState === null) {
      const where = ctx.answer('destination', askDestination);
      if (where === undefined)
        return inputRequired({ inputRequests: { destination: askDestination } });
      if (where.action !== 'accept') return 'Booking cancelled.';
      return inputRequired({
        inputRequests: { date: askDate(where.data.destination) },
        requestState: where.data.destination,
      });
    }
    const when = ctx.answer('date', askDate(ctx.requestState));
    if (when === undefined)
      return inputRequired({
        inputRequests: { date: askDate(ctx.requestState) },
        requestState: ctx.requestState,
      });
    return when.action === 'accept'
      ? `Booked a flight to ${ctx.requestState} on ${when.data.date}`
      : 'Booking cancelled.';
  });

  mcp.prompt('summarize', { description: 'Summarize a quarter' }, async (_args, ctx) => {
    const quarter = await ctx.ask('quarter', askQuarter);
    return `Summarize the ${quarter.action === 'accept' ? quarter.data : 'latest'} results.`;
  });

  mcp.resource(
    'report://summary',
    { name: 'summary', mimeType: 'text/plain' },
    async (_uri, ctx) => {
      const quarter = await ctx.ask('quarter', askQuarter);
      return `Revenue report for ${quarter.action === 'accept' ? quarter.data : 'all quarters'}`;
    },
  );

  return mcp;
}
