import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  isModernVersion,
  type ElicitationResult,
} from '@parley/server';
import * as z from 'zod';

export function createServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'Dual-Era Server' });

  // #region branch
  const PartySize = z.number().int().min(1).max(12);
  const labels = { responseTitle: 'People' };
  const askPeople = elicitRequest('How many people?', PartySize, labels);

  mcp.tool('book_table', async (_args, ctx) => {
    let people: ElicitationResult<number>;
    if (isModernVersion(ctx.requestContext.protocolVersion)) {
      // 2026-07-28: the guard pattern.
      const answer = ctx.answer('people', askPeople);
      if (answer === undefined)
        return inputRequired({ inputRequests: { people: askPeople } });
      people = answer;
    } else {
      // ≤ 2025-11-25: ask and wait.
      people = await ctx.elicit('How many people?', PartySize, labels);
    }
    return people.action === 'accept'
      ? `Table for ${people.data}`
      : 'No table booked.';
  });
  // #endregion branch

  return mcp;
}
