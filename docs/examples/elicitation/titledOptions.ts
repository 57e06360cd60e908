import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Titled Priorities', ...options });

  // #region single
  mcp.tool('set_priority', async (_args, ctx) => {
    const result = await ctx.ask(
      'priority',
      elicitRequest(
        'What priority level?',
        {
          low: { title: 'Low Priority' },
          medium: { title: 'Medium Priority' },
          high: { title: 'High Priority' },
        },
        { responseTitle: 'Priority' },
      ),
    );

    if (result.action === 'accept')
      return `Priority set to: ${result.data}`; // 'low' | 'medium' | 'high'
    return 'No priority set';
  });
  // #endregion single

  // #region multi
  mcp.tool('select_priorities', async (_args, ctx) => {
    const result = await ctx.ask(
      'priorities',
      elicitRequest(
        'Choose priorities',
        [
          {
            low: { title: 'Low Priority' },
            medium: { title: 'Medium Priority' },
            high: { title: 'High Priority' },
          },
        ],
        { responseTitle: 'Priorities' },
      ),
    );

    if (result.action === 'accept')
      return `Selected: ${result.data.join(', ')}`;
    return 'Nothing selected';
  });
  // #endregion multi

  return mcp;
}
