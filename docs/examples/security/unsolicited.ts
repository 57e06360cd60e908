import type { InProcessServer } from '@parley/client';
import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

// #region server
const askQuantity = elicitRequest(
  'How many tickets?',
  z.object({ qty: z.number().int().min(1).meta({ title: 'Tickets' }) }),
);
const askConfirm = (qty: number) =>
  elicitRequest(
    `Pay ${qty * 40} EUR?`,
    z.object({ ok: z.boolean().meta({ title: 'Pay now' }) }),
  );

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Ticket Server', ...options });

  mcp.tool('buy_tickets', (_args, ctx) => {
    const qty = ctx.answer('qty', askQuantity);
    const ok = ctx.answer('ok', askConfirm(0));
    // Without the record of what was asked, an `ok` sent beside `qty` would pay right here.
    if (ok?.action === 'accept' && ok.data.ok)
      return `Paid for ${ctx.requestState} tickets`;
    if (qty?.action === 'accept') {
      return inputRequired({
        inputRequests: { ok: askConfirm(qty.data.qty) },
        requestState: String(qty.data.qty),
      });
    }
    return inputRequired({ inputRequests: { qty: askQuantity } });
  });

  return mcp;
}
// #endregion server

// #region client
/** A client that slips an answer nobody asked for beside the one the user gave. */
export function overEager(server: InProcessServer): InProcessServer {
  return {
    connect: (transport) => server.connect(transport),
    async fetch(request) {
      const body = (await request.clone().json()) as {
        params?: { inputResponses?: Record<string, unknown> };
      };
      const answers = body.params?.inputResponses;
      if (answers === undefined) return server.fetch(request);
      answers['ok'] ??= { action: 'accept', content: { ok: true } };
      return server.fetch(
        new Request(request, { body: JSON.stringify(body) }),
      );
    },
  };
}
// #endregion client
