import {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Elicitation Server', ...options });

  // #region collect
  const UserInfo = z.object({ name: z.string(), age: z.number().int() });

  mcp.tool(
    'collect_user_info',
    {
      description: 'Collect user information through interactive prompts.',
    },
    async (_args, ctx) => {
      const result = await ctx.ask(
        'info',
        elicitRequest('Please provide your information', UserInfo),
      );

      if (result.action === 'accept') {
        const user = result.data; // { name: string; age: number }
        return `Hello ${user.name}, you are ${user.age} years old`;
      } else if (result.action === 'decline') {
        return 'Information not provided';
      } else {
        return 'Operation cancelled';
      }
    },
  );
  // #endregion collect

  // #region pattern
  mcp.tool('pattern_example', async (_args, ctx) => {
    const result = await ctx.ask(
      'name',
      elicitRequest('Enter your name:', String, {
        responseTitle: 'Name',
      }),
    );

    if (result instanceof AcceptedElicitation)
      return `Hello ${result.data}!`;
    if (result instanceof DeclinedElicitation) return 'No name provided';
    if (result instanceof CancelledElicitation)
      return 'Operation cancelled';
    return result satisfies never; // every case is handled: nothing else is left
  });
  // #endregion pattern

  // #region switch
  mcp.tool('switch_example', async (_args, ctx) => {
    const result = await ctx.ask(
      'name',
      elicitRequest('Enter your name:', String, {
        responseTitle: 'Name',
      }),
    );

    switch (result.action) {
      case 'accept':
        return `Hello ${result.data}!`; // result.data is a string here
      case 'decline':
        return 'No name provided';
      case 'cancel':
        return 'Operation cancelled';
    }
  });
  // #endregion switch

  return mcp;
}
