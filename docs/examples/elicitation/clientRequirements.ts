import {
  ParleyServer,
  UnsupportedCapabilityError,
  elicitRequest,
} from '@parley/server';

export function createServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'Feedback Server' });

  // #region feedback
  mcp.tool('optional_feedback', async (_args, ctx) => {
    try {
      const result = await ctx.ask(
        'feedback',
        elicitRequest('Any feedback?', String, {
          responseTitle: 'Feedback',
        }),
      );
      return result.action === 'accept'
        ? `Feedback: ${result.data}`
        : 'No feedback';
    } catch (error) {
      // The client declared no elicitation capability: carry on without asking.
      if (error instanceof UnsupportedCapabilityError)
        return `Feedback skipped: ${error.message}`;
      throw error;
    }
  });
  // #endregion feedback

  return mcp;
}
