import {
  ParleyServer,
  elicitRequest,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Bakery', ...options });

  // #region confirmPurchase
  mcp.tool('confirm_purchase', async (_args, ctx) => {
    const result = await ctx.ask(
      'purchase',
      elicitRequest('Buy 1x Baguette?', Boolean, {
        responseTitle: 'Confirm purchase',
        responseDescription: 'Approve this transaction?',
      }),
    );
    if (result.action === 'accept')
      return result.data ? 'Purchased' : 'Declined';
    return 'No response';
  });
  // #endregion confirmPurchase

  // #region labelFields
  mcp.tool('delivery_details', async (_args, ctx) => {
    const Delivery = z.object({
      street: z
        .string()
        .meta({ title: 'Street', description: 'Street and number' }),
      floor: z.number().int().optional().meta({ title: 'Floor' }),
    });
    const result = await ctx.ask(
      'address',
      elicitRequest('Where should we deliver?', Delivery),
    );
    return result.action === 'accept'
      ? `Delivering to ${result.data.street}`
      : 'Pick-up then';
  });
  // #endregion labelFields

  return mcp;
}

/** Labels next to an object response type throw where the ask is built, before anything is sent. */
export function labelsOnAnObject(): unknown {
  // #region labelError
  return elicitRequest(
    'Where should we deliver?',
    z.object({ street: z.string() }),
    {
      // @ts-expect-error label the object's fields instead (a TypeError at run time too)
      responseTitle: 'Address',
    },
  );
  // #endregion labelError
}
