import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Confirmations', ...options });

  // #region confirm
  const askOk = elicitRequest(
    'Proceed?',
    z.object({ ok: z.boolean().meta({ title: 'Proceed' }) }),
  );

  mcp.tool('confirm', (_args, ctx) => {
    const answer = ctx.answer('ok', askOk); // validated and typed; undefined until answered
    if (answer === undefined)
      return inputRequired({ inputRequests: { ok: askOk } });

    if (answer.action !== 'accept') return 'Cancelled.';
    return `Proceeding with ${answer.data.ok}`;
  });
  // #endregion confirm

  // #region raw
  mcp.tool('confirm_raw', (_args, ctx) => {
    // The same answer, as the client sent it: an ElicitResult under the key you asked with.
    const raw = ctx.inputResponses?.['ok'];
    if (raw === undefined)
      return inputRequired({ inputRequests: { ok: askOk } });
    if (!('action' in raw) || raw.action !== 'accept') return 'Cancelled.';
    return `The client sent ${JSON.stringify(raw.content)}`;
  });
  // #endregion raw

  return mcp;
}
