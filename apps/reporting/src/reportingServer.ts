import { LoggingMiddleware, TimingMiddleware } from '@parley/middleware';
import {
  ParleyServer,
  elicitRequest,
  rootsRequest,
  sampleRequest,
  type ParleyServerOptions,
} from '@parley/server';

import {
  QUARTERS,
  RATES,
  REVENUE,
  isQuarter,
  totalOf,
  type Currency,
  type Quarter,
} from './dataset.ts';

/**
 * Prompts, resources and resource templates that ask before they render, a tool that asks
 * for the client's roots and a sampling result in one round, and a long report that runs as a
 * task and asks mid-way. Every handler asks with `ctx.ask` /
 * `ctx.askAll`, so each serves both eras with one code path.
 */

export interface ReportingServerOptions {
  log?: (line: string) => void;
  serverOptions?: Partial<ParleyServerOptions>;
}

const quarterOptions = Object.fromEntries(
  QUARTERS.map((quarter) => [quarter, { title: `${quarter} 2026` }]),
) as Record<Quarter, { title: string }>;
const askQuarter = elicitRequest('Which quarter should the report cover?', quarterOptions, {
  responseTitle: 'Quarter',
});
const askCurrency = (quarter: string) =>
  elicitRequest(
    `Which currency for the ${quarter} revenue?`,
    { EUR: { title: 'Euro' }, USD: { title: 'US dollar' }, GBP: { title: 'Pound sterling' } },
    {
      responseTitle: 'Currency',
    },
  );

const askSummary = sampleRequest({
  systemPrompt: 'You are a concise financial analyst.',
  messages: [
    {
      role: 'user',
      content: {
        type: 'text',
        text: `Summarize in one sentence:\n${QUARTERS.map((q) => `${q}: ${totalOf(q)}k EUR`).join('\n')}`,
      },
    },
  ],
  maxTokens: 120,
});

function table(quarter: Quarter, currency: Currency = 'EUR'): string {
  const rate = RATES[currency];
  const lines = Object.entries(REVENUE[quarter]).map(
    ([region, value]) => `${region}: ${(value * rate).toFixed(0)}k ${currency}`,
  );
  return [...lines, `Total: ${(totalOf(quarter) * rate).toFixed(0)}k ${currency}`].join('\n');
}

export function createReportingServer(options: ReportingServerOptions = {}): ParleyServer {
  const mcp = new ParleyServer({
    name: 'Reporting Server',
    version: '1.0.0',
    instructions: 'Quarterly revenue reports that ask which quarter before they render.',
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

  mcp.prompt(
    'summarize',
    { description: 'Summarize a quarter (asks which one).', asks: { quarter: askQuarter } },
    async (_args, ctx) => {
      const quarter = await ctx.ask('quarter', askQuarter);
      if (quarter.action !== 'accept') return 'Summarize the latest quarterly results.';
      return [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Summarize the ${quarter.data} results for the leadership team.`,
          },
        },
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: `report://${quarter.data}/revenue`,
              mimeType: 'text/plain',
              text: table(quarter.data),
            },
          },
        },
      ];
    },
  );

  mcp.resource(
    'report://summary',
    { name: 'summary', title: 'Quarterly summary', mimeType: 'text/plain' },
    async (_uri, ctx) => {
      const quarter = await ctx.ask('quarter', askQuarter);
      if (quarter.action !== 'accept')
        return `Revenue summary, all quarters: ${QUARTERS.map((q) => `${q} ${totalOf(q)}k EUR`).join(', ')}`;
      return `Revenue report for ${quarter.data}\n${table(quarter.data)}`;
    },
  );

  mcp.resourceTemplate(
    'report://{quarter}/revenue',
    {
      name: 'quarterly revenue',
      title: 'Revenue of one quarter',
      mimeType: 'text/plain',
      complete: {
        quarter: (value) => QUARTERS.filter((quarter) => quarter.startsWith(value.toUpperCase())),
      },
    },
    async (_uri, variables, ctx) => {
      const quarter = String(variables.quarter);
      if (!isQuarter(quarter))
        throw new Error(`Unknown quarter '${quarter}' (use ${QUARTERS.join(', ')})`);
      const currency = await ctx.ask('currency', askCurrency(quarter));
      return `Revenue for ${quarter}\n${table(quarter, currency.action === 'accept' ? currency.data : 'EUR')}`;
    },
  );

  mcp.tool(
    'summarize_workspace',
    {
      description:
        "Asks for the client's roots and its model's one-line take on the figures, in one round.",
    },
    async (_args, ctx) => {
      const { roots, summary } = await ctx.askAll({ roots: rootsRequest(), summary: askSummary });
      const text =
        !Array.isArray(summary.content) && summary.content.type === 'text'
          ? summary.content.text
          : '(no text)';
      const where =
        roots.length === 0 ? 'no roots' : roots.map((root) => root.name ?? root.uri).join(', ');
      return `Workspace: ${where}. Model (${summary.model}): ${text}`;
    },
  );

  mcp.tool(
    'annual_report',
    {
      description:
        'Compiles the annual report as a task: works through every quarter (progress shown), then asks how to present it, and waits as long as the reader takes.',
      task: { support: 'optional', pollIntervalMs: 100 },
    },
    async (_args, ctx) => {
      for (const [index, quarter] of QUARTERS.entries()) {
        await ctx.reportProgress(index, QUARTERS.length, `Compiling ${quarter}`);
        await pause(COMPILE_MS_PER_QUARTER, ctx.signal);
      }
      const { currency, breakdown } = await ctx.askAll({
        currency: askAnnualCurrency,
        breakdown: askBreakdown,
      });
      const chosen: Currency = currency.action === 'accept' ? currency.data : 'EUR';
      const rate = RATES[chosen];
      const total = QUARTERS.reduce((sum, quarter) => sum + totalOf(quarter), 0) * rate;
      const lines = [`Annual report 2026: ${total.toFixed(0)}k ${chosen}`];
      if (breakdown.action === 'accept' && breakdown.data) {
        for (const quarter of QUARTERS) {
          lines.push(`${quarter}: ${(totalOf(quarter) * rate).toFixed(0)}k ${chosen}`);
        }
      }
      return lines.join('\n');
    },
  );

  return mcp;
}

/** How long compiling one quarter takes in the demo: long enough to watch the task work. */
const COMPILE_MS_PER_QUARTER = 150;

const askAnnualCurrency = elicitRequest(
  'Which currency for the annual report?',
  { EUR: { title: 'Euro' }, USD: { title: 'US dollar' }, GBP: { title: 'Pound sterling' } },
  { responseTitle: 'Currency' },
);
const askBreakdown = elicitRequest('Include the quarterly breakdown?', Boolean, {
  responseTitle: 'Breakdown',
});

/** Wait `ms`, or stop when the task is cancelled. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
