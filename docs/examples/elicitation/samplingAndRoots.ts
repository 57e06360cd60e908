import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  rootsRequest,
  sampleRequest,
} from '@parley/server';

export function createServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'Workspace Server' });

  // #region mixed
  const askPurpose = elicitRequest('What are you working on?', String, {
    responseTitle: 'Purpose',
  });

  const askRoots = rootsRequest();
  const askSummary = sampleRequest(
    'Summarize this workspace in one sentence.',
    { maxTokens: 50 },
  );

  mcp.tool('survey_workspace', (_args, ctx) => {
    const purpose = ctx.answer('purpose', askPurpose); // an ElicitationResult, typed
    const roots = ctx.answer('roots', askRoots); // Root[]
    const summary = ctx.answer('summary', askSummary); // CreateMessageResult

    if (
      purpose === undefined ||
      roots === undefined ||
      summary === undefined
    ) {
      // One round, three requests: the client answers them all before it retries.
      return inputRequired({
        inputRequests: {
          purpose: askPurpose,
          roots: askRoots,
          summary: askSummary,
        },
      });
    }

    const text =
      !Array.isArray(summary.content) && summary.content.type === 'text'
        ? summary.content.text
        : '';
    const where = roots.map((root) => root.uri).join(', ');
    return `Purpose: ${purpose.action === 'accept' ? purpose.data : '-'}; roots: ${where}; model: ${text}`;
  });
  // #endregion mixed

  // #region handshake
  mcp.tool('describe_roots', async (_args, ctx) => {
    // Handshake era: the same requests, sent while the tool waits.
    const roots = await ctx.listRoots();
    const summary = await ctx.sample(
      `Describe: ${roots.map((root) => root.uri).join(', ')}`,
      {
        maxTokens: 40,
      },
    );
    const text =
      !Array.isArray(summary.content) && summary.content.type === 'text'
        ? summary.content.text
        : '';
    return `${roots.length} root(s); the model says: ${text}`;
  });
  // #endregion handshake

  return mcp;
}
