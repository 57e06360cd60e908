import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

const askForQuarter = elicitRequest(
  'Which quarter should the summary cover?',
  z.object({
    quarter: z.enum(['Q1', 'Q2', 'Q3', 'Q4']).meta({ title: 'Quarter' }),
  }),
);

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Reporting Server', ...options });

  // #region prompt
  mcp.prompt(
    'summarize',
    { description: 'Summarize a quarter' },
    (_args, ctx) => {
      const answer = ctx.answer('quarter', askForQuarter);
      if (answer === undefined)
        return inputRequired({ inputRequests: { quarter: askForQuarter } });
      if (answer.action !== 'accept')
        return 'Summarize the latest results.';
      return `Summarize the ${answer.data.quarter} results.`;
    },
  );
  // #endregion prompt

  // #region resource
  mcp.resource(
    'report://summary',
    { name: 'summary', mimeType: 'text/plain' },
    (_uri, ctx) => {
      const answer = ctx.answer('quarter', askForQuarter);
      if (answer === undefined)
        return inputRequired({ inputRequests: { quarter: askForQuarter } });
      const quarter =
        answer.action === 'accept' ? answer.data.quarter : 'all quarters';
      return `Revenue report for ${quarter}`;
    },
  );

  mcp.resourceTemplate(
    'report://{quarter}/revenue',
    { name: 'quarterly revenue', mimeType: 'text/plain' },
    (_uri, { quarter }, ctx) => {
      const askCurrency = elicitRequest(
        `Which currency for ${quarter}?`,
        ['EUR', 'USD'],
        {
          responseTitle: 'Currency',
        },
      );
      const currency = ctx.answer('currency', askCurrency);
      if (currency === undefined)
        return inputRequired({ inputRequests: { currency: askCurrency } });
      return `Revenue for ${quarter} in ${currency.action === 'accept' ? currency.data : 'EUR'}`;
    },
  );
  // #endregion resource

  return mcp;
}
