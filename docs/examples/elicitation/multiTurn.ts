import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Meeting Planner', ...options });

  // #region planMeeting
  mcp.tool(
    'plan_meeting',
    { description: 'Plan a meeting by gathering details step by step.' },
    async (_args, ctx) => {
      const title = await ctx.ask(
        'title',
        elicitRequest("What's the meeting title?", String, {
          responseTitle: 'Title',
        }),
      );
      if (title.action !== 'accept') return 'Meeting planning cancelled';

      const duration = await ctx.ask(
        'duration',
        elicitRequest('Duration in minutes?', z.number().int(), {
          responseTitle: 'Minutes',
        }),
      );
      if (duration.action !== 'accept') return 'Meeting planning cancelled';

      const priority = await ctx.ask(
        'urgent',
        elicitRequest('Is this urgent?', ['yes', 'no'], {
          responseTitle: 'Urgent',
        }),
      );
      if (priority.action !== 'accept') return 'Meeting planning cancelled';

      const urgent = priority.data === 'yes';
      return `Meeting '${title.data}' for ${duration.data} minutes (Urgent: ${urgent})`;
    },
  );
  // #endregion planMeeting

  return mcp;
}
