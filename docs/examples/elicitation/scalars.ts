import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Scalar Server', ...options });

  // #region scalars
  mcp.tool('get_user_name', async (_args, ctx) => {
    const result = await ctx.ask(
      'name',
      elicitRequest("What's your name?", String),
    );

    if (result.action === 'accept') return `Hello, ${result.data}!`; // string
    return 'No name provided';
  });

  mcp.tool('pick_a_number', async (_args, ctx) => {
    const result = await ctx.ask(
      'number',
      elicitRequest('Pick a number!', z.number().int()),
    );

    if (result.action === 'accept') return `You picked ${result.data}`; // number (an integer)
    return 'No number provided';
  });

  mcp.tool('pick_a_boolean', async (_args, ctx) => {
    const result = await ctx.ask(
      'choice',
      elicitRequest('True or false?', Boolean),
    );

    if (result.action === 'accept') return `You picked ${result.data}`; // boolean
    return 'No boolean provided';
  });
  // #endregion scalars

  return mcp;
}
