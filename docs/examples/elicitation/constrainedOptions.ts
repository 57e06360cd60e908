import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

// #region tsEnum
enum Priority {
  LOW = 'low',
  MEDIUM = 'medium',
  HIGH = 'high',
}
// #endregion tsEnum

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Priorities', ...options });
  const labels = { responseTitle: 'Priority' };

  // #region list
  mcp.tool('set_priority', async (_args, ctx) => {
    const result = await ctx.ask(
      'priority',
      elicitRequest(
        'What priority level?',
        ['low', 'medium', 'high'],
        labels,
      ),
    );

    if (result.action === 'accept')
      return `Priority set to: ${result.data}`; // 'low' | 'medium' | 'high'
    return 'No priority set';
  });
  // #endregion list

  // #region literal
  mcp.tool('set_priority_literal', async (_args, ctx) => {
    const result = await ctx.ask(
      'priority',
      elicitRequest(
        'What priority level?',
        z.literal(['low', 'medium', 'high']), // or z.enum(['low', 'medium', 'high'])
        labels,
      ),
    );

    if (result.action === 'accept')
      return `Priority set to: ${result.data}`;
    return 'No priority set';
  });
  // #endregion literal

  // #region enumTool
  mcp.tool('set_priority_enum', async (_args, ctx) => {
    const result = await ctx.ask(
      'priority',
      elicitRequest('What priority level?', Priority, labels),
    );

    if (result.action === 'accept')
      return `Priority set to: ${result.data}`; // a Priority
    return 'No priority set';
  });
  // #endregion enumTool

  return mcp;
}
