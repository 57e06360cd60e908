import { PassThrough } from 'node:stream';

import { describe, expect, test } from 'vitest';

import { markSealedAsk } from '../../src/flow/seal.ts';
import { LineTransport } from '../../src/stdio/lineTransport.ts';

/**
 * Over stdio, as over HTTP, an asking round's line has its sealed state written in as it is:
 * the line must still be exactly the JSON of the message, also when the state was changed after
 * sealing into text JSON has to escape.
 */

async function lineOf(message: Record<string, unknown>): Promise<string> {
  const output = new PassThrough();
  const transport = new LineTransport(new PassThrough(), output);
  await transport.send(message as never);
  return (output.read() as Buffer).toString('utf8');
}

function asking(requestState: string): Record<string, unknown> {
  const result = {
    resultType: 'input_required',
    inputRequests: { city: { method: 'elicitation/create', params: { message: 'Say "hi"' } } },
    _meta: { note: 'requestState":""}}' },
    requestState,
  };
  markSealedAsk(result);
  return { jsonrpc: '2.0', id: 'a "quoted" id', result };
}

describe('a stdio line of an asking round', () => {
  test('is the JSON of the message, with the sealed state as it is', async () => {
    const message = asking('ps1.AbC-_9.x');
    const line = await lineOf(message);
    expect(line).toBe(`${JSON.stringify(message)}\n`);
    expect(JSON.parse(line)).toEqual(message);
  });

  test('a state changed after sealing into text to escape is escaped', async () => {
    const message = asking('ps1.x');
    (message.result as { requestState: string }).requestState = 'changed "in" \\ place';
    const line = await lineOf(message);
    expect(line).toBe(`${JSON.stringify(message)}\n`);
    expect((JSON.parse(line) as typeof message).result).toMatchObject({
      requestState: 'changed "in" \\ place',
    });
  });
});
