import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Task Server', ...options });

  // #region structured
  const TaskDetails = z.object({
    title: z.string(),
    description: z.string(),
    priority: z.enum(['low', 'medium', 'high']),
    due_date: z.iso.date(), // sent as { type: 'string', format: 'date' }
  });

  mcp.tool('create_task', async (_args, ctx) => {
    const result = await ctx.ask(
      'task',
      elicitRequest('Please provide task details', TaskDetails),
    );

    if (result.action === 'accept') {
      const task = result.data; // z.output<typeof TaskDetails>
      return `Created task: ${task.title} (Priority: ${task.priority})`;
    }
    return 'Task creation cancelled';
  });
  // #endregion structured

  // #region refused
  mcp.tool('create_project', async (_args, ctx) => {
    // The spec allows only flat objects: a compile-time error, and a TypeError before
    // anything is sent for code the compiler does not check.
    const result = await ctx.ask(
      'project',
      elicitRequest(
        'Project details',
        // @ts-expect-error elicitation cannot carry this shape (a nested object)
        z.object({
          name: z.string(),
          owner: z.object({ email: z.email() }),
        }),
      ),
    );
    return result.action;
  });
  // #endregion refused

  return mcp;
}
