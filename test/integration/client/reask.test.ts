import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { Client, InvalidAnswerError, type ClientMode } from '@parley/client';
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';

/**
 * The Parley client against a server that refuses an answer: it is simply asked again (the
 * message says why) and completes; past the server's re-asks the call rejects with an
 * `InvalidAnswerError` carrying the key and the field, in both eras, in-process and over HTTP.
 */

// The client checks answers against the schema itself, so the refusal is a refinement only the
// server knows: a voucher code must start with A.
const Code = z.object({
  code: z
    .string()
    .meta({ title: 'Voucher code' })
    .refine((value) => value.startsWith('A'), 'must start with A'),
});
const askCode = elicitRequest('Your voucher code?', Code);

function voucherServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'Vouchers', onError: () => {} });
  mcp.tool('voucher', async (_args, ctx) => {
    if (ctx.era === 'handshake') {
      const code = await ctx.elicit('Your voucher code?', Code);
      return code.action === 'accept' ? `Voucher ${code.data.code}` : 'No voucher';
    }
    const code = ctx.answer('code', askCode);
    if (code === undefined) return inputRequired({ inputRequests: { code: askCode } });
    return code.action === 'accept' ? `Voucher ${code.data.code}` : 'No voucher';
  });
  return mcp;
}

const text = (result: { content: unknown[] }) =>
  (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');

describe.each<['in-process' | 'http', Exclude<ClientMode, 'auto'>]>([
  ['in-process', 'modern'],
  ['in-process', 'handshake'],
  ['http', 'modern'],
  ['http', 'handshake'],
])('%s, %s era', (via, mode) => {
  async function target(): Promise<{ target: ParleyServer | string; close(): Promise<void> }> {
    const server = voucherServer();
    if (via === 'in-process') return { target: server, close: async () => {} };
    const running = await server.run({ transport: 'http', host: '127.0.0.1', port: 0 });
    return { target: running.url!, close: () => running.close() };
  }

  test('a refused answer is asked again, saying why, and the corrected one completes', async () => {
    const opened = await target();
    const messages: string[] = [];
    await using client = new Client(opened.target, {
      mode,
      elicitationHandler: (message, responseType) => {
        messages.push(message);
        return responseType({ code: messages.length === 1 ? 'B-1' : 'A-1' });
      },
    });
    await client.connect();
    expect(text(await client.callTool('voucher'))).toBe('Voucher A-1');
    expect(messages).toEqual([
      'Your voucher code?',
      'Your voucher code?\n\nYour last answer could not be used. Voucher code: must start with A.',
    ]);
    await opened.close();
  });

  test('past the re-asks, the call rejects with an InvalidAnswerError naming the field', async () => {
    const opened = await target();
    let asked = 0;
    await using client = new Client(opened.target, {
      mode,
      elicitationHandler: (_message, responseType) => ((asked += 1), responseType({ code: 'B-1' })),
    });
    await client.connect();
    const failure = await client.callTool('voucher').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidAnswerError);
    expect((failure as InvalidAnswerError).data).toMatchObject({
      field: 'code',
      reason: 'must start with A',
      ...(mode === 'modern' ? { key: 'code' } : {}),
    });
    expect(asked).toBe(4);
    await opened.close();
  });
});
