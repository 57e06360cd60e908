import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

// #region defaults
enum Priority {
  LOW = 'low',
  MEDIUM = 'medium',
  HIGH = 'high',
}

export const TaskDetails = z.object({
  title: z.string().describe('Task title'),
  description: z.string().default('').describe('Task description'),
  priority: z
    .enum(Priority)
    .default(Priority.MEDIUM)
    .describe('Task priority'),
});

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Task Server', ...options });

  mcp.tool('create_task', async (_args, ctx) => {
    const result = await ctx.ask(
      'task',
      elicitRequest('Please provide task details', TaskDetails),
    );
    if (result.action === 'accept') {
      return `Created: ${result.data.title} (priority ${result.data.priority})`;
    }
    return 'Task creation cancelled';
  });

  return mcp;
}
// #endregion defaults
