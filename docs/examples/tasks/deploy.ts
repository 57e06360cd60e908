import {
  ParleyServer,
  elicitRequest,
  type TasksOptions,
} from '@parley/server';
import * as z from 'zod';

// #region server
const approve = elicitRequest(
  'Deploy build 1042 to production?',
  z.object({ approve: z.boolean().meta({ title: 'Approve' }) }),
);
const region = elicitRequest(
  'Which region first?',
  z.object({
    region: z.enum(['eu-west', 'us-east']).meta({ title: 'Region' }),
  }),
);

export function createServer(tasks?: TasksOptions): ParleyServer {
  const mcp = new ParleyServer({ name: 'Deploy Server', tasks });

  mcp.tool(
    'deploy',
    {
      description:
        'Deploys a build; waits for an approval, however long it takes.',
      task: 'optional', // a task for clients that can take one, a plain call for the others
    },
    async (_args, ctx) => {
      await ctx.reportProgress(1, 3, 'Build checked');
      // Inside a task, ctx.ask is a real await: the question is on the task until answered.
      const go = await ctx.ask('approve', approve);
      if (go.action !== 'accept' || !go.data.approve)
        return 'Not deployed.';
      const first = await ctx.ask('region', region);
      if (first.action !== 'accept') return 'Not deployed.';
      await ctx.reportProgress(2, 3, `Rolling out to ${first.data.region}`);
      return `Build 1042 deployed, ${first.data.region} first.`;
    },
  );
  // #endregion server

  // #region options
  mcp.tool(
    'nightly_export',
    {
      task: {
        support: 'required', // only as a task: other clients get -32021
        ttlMs: 7 * 24 * 60 * 60 * 1000, // kept a week, waiting included (default: a day)
        pollIntervalMs: 500, // how often clients should look (default: 1 s)
      },
    },
    async (_args, ctx) => {
      // ctx.signal aborts when the client cancels the task (reason: a TaskCancelledError).
      ctx.signal.throwIfAborted();
      return 'Exported.';
    },
  );
  // #endregion options

  // #region byHandler
  mcp.tool(
    'migrate',
    { task: { support: 'optional', start: 'by-handler' } },
    async (_args, ctx) => {
      // Before startTask(): rounds of the call itself (MRTR on 2026-07-28).
      const go = await ctx.ask(
        'go',
        elicitRequest('Migrate the orders table now?', Boolean),
      );
      if (go.action !== 'accept' || !go.data) return 'Not migrated.';
      await ctx.startTask(); // the client gets the task; the work goes on
      return 'Orders table migrated.';
    },
  );
  // #endregion byHandler
  return mcp;
}
