import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';

function doAction(): string {
  return 'Action done';
}

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Approvals', ...options });

  // #region approve
  mcp.tool('approve_action', async (_args, ctx) => {
    const result = await ctx.ask(
      'approve',
      elicitRequest('Approve this action?', Boolean, {
        responseTitle: 'Approve',
      }),
    );

    if (result.action === 'accept' && result.data) return doAction();
    throw new Error('Action rejected');
  });
  // #endregion approve

  // #region approveOnly
  mcp.tool('acknowledge', async (_args, ctx) => {
    // `null`: no fields at all; accept / decline / cancel is the whole answer.
    const result = await ctx.ask(
      'approval',
      elicitRequest('Acknowledge the maintenance window?', null),
    );
    return result.action === 'accept' ? 'Acknowledged' : 'Not acknowledged';
  });
  // #endregion approveOnly

  return mcp;
}
