import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

// #region tagEnum
enum Tag {
  BUG = 'bug',
  FEATURE = 'feature',
  DOCS = 'documentation',
}
// #endregion tagEnum

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Tagger', ...options });
  const labels = { responseTitle: 'Tags' };

  // #region nestedList
  mcp.tool('select_tags', async (_args, ctx) => {
    const result = await ctx.ask(
      'tags',
      elicitRequest(
        'Choose tags',
        [['bug', 'feature', 'documentation']], // note: a list in a list
        labels,
      ),
    );

    if (result.action === 'accept')
      return `Selected tags: ${result.data.join(', ')}`; // string literals[]
    return 'No tags selected';
  });
  // #endregion nestedList

  // #region enumList
  mcp.tool('select_tags_enum', async (_args, ctx) => {
    const result = await ctx.ask(
      'tags',
      elicitRequest('Choose tags', [Tag], labels),
    );

    if (result.action === 'accept')
      return `Selected: ${result.data.join(', ')}`; // Tag[]
    return 'No tags selected';
  });
  // #endregion enumList

  // #region zodArray
  mcp.tool('select_up_to_two', async (_args, ctx) => {
    const TwoTags = z
      .array(z.enum(['bug', 'feature', 'documentation']))
      .min(1)
      .max(2);
    const result = await ctx.ask(
      'tags',
      elicitRequest('Choose one or two tags', TwoTags, labels),
    );

    if (result.action === 'accept')
      return `Selected: ${result.data.join(', ')}`;
    return 'No tags selected';
  });
  // #endregion zodArray

  return mcp;
}
