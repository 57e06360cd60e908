import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { ParleyServer, elicitRequest, inputRequired, type RunningServer } from '../../src/index.ts';
import { replyJson } from '../../src/modern/encode.ts';
import { markSealedAsk } from '../../src/flow/seal.ts';

/**
 * An asking round's reply is written with its sealed `requestState` put into the text as it is
 * (it needs no escaping), not serialised character by character: the text must still be exactly
 * the JSON of the reply, whatever else the result carries, and the state must still open.
 */

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

let running: RunningServer;

beforeAll(async () => {
  const mcp = new ParleyServer({ name: 'reply-text', onWarning: () => {} });
  const askCity = elicitRequest('Which city? Say "quoted" and \\ too.', String);
  mcp.tool('trip', (_args, ctx) => {
    const city = ctx.answer('value', askCity);
    if (city === undefined) {
      return inputRequired({
        inputRequests: { value: askCity },
        requestState: 'first "round" \\ state',
        _meta: { 'example.com/note': 'requestState":""}}' },
      });
    }
    return `city ${city.action === 'accept' ? String(city.data) : '-'}, state ${ctx.requestState}`;
  });
  running = await mcp.run({ transport: 'http', port: 0 });
});
afterAll(() => running.close());

interface AskReply {
  id: unknown;
  result: {
    resultType: string;
    requestState: string;
    _meta: Record<string, unknown>;
    inputRequests: { value: { params: { message: string } } };
    content: { text: string }[];
  };
}

async function call(params: Record<string, unknown>): Promise<{ text: string; body: AskReply }> {
  const response = await fetch(running.url!, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'trip',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'a "quoted" id',
      method: 'tools/call',
      params: { name: 'trip', arguments: {}, _meta: ENVELOPE, ...params },
    }),
  });
  const text = await response.text();
  return { text, body: JSON.parse(text) as AskReply };
}

describe('the reply text of an asking round', () => {
  test('is the JSON of the reply, with the sealed state as it was sealed, and the state opens', async () => {
    const first = await call({});
    expect(first.text).toBe(JSON.stringify(first.body));
    expect(first.body.id).toBe('a "quoted" id');
    const { result } = first.body;
    expect(result.resultType).toBe('input_required');
    expect(result.requestState).toMatch(/^ps1\.[A-Za-z0-9_-]+$/);
    expect(result._meta['example.com/note']).toBe('requestState":""}}');
    expect(result.inputRequests.value.params.message).toBe('Which city? Say "quoted" and \\ too.');

    const second = await call({
      inputResponses: { value: { action: 'accept', content: { value: 'Oslo' } } },
      requestState: result.requestState,
    });
    expect(second.body.result.content[0]?.text).toBe('city Oslo, state first "round" \\ state');
  });
});

describe('replyJson', () => {
  const token = `ps1.${'A-_z09'.repeat(80)}`;

  test('a marked result: the same text JSON.stringify gives, and the result left as it was', () => {
    const result = { resultType: 'input_required', inputRequests: { a: {} }, requestState: token };
    markSealedAsk(result);
    const message = { jsonrpc: '2.0' as const, id: 7, result };
    expect(replyJson(message)).toBe(JSON.stringify(message));
    expect(result.requestState).toBe(token);
  });

  test('a marked result whose state is not its last key falls back to plain JSON', () => {
    const result = { resultType: 'input_required', requestState: token, extra: 'x' };
    markSealedAsk(result);
    const message = { jsonrpc: '2.0' as const, id: 'x', result };
    expect(replyJson(message)).toBe(JSON.stringify(message));
  });

  test('a marked result whose state was changed to text JSON must escape is plain JSON', () => {
    const result = { resultType: 'input_required', requestState: token };
    markSealedAsk(result);
    result.requestState = 'a "quoted" \\ state';
    const message = { jsonrpc: '2.0' as const, id: 2, result };
    expect(JSON.parse(replyJson(message))).toEqual(message);
  });

  test('an unmarked result or an error is plain JSON', () => {
    const message = { jsonrpc: '2.0' as const, id: 1, result: { requestState: 'a"b' } };
    expect(replyJson(message)).toBe(JSON.stringify(message));
    const error = { jsonrpc: '2.0' as const, id: 1, error: { code: -1, message: 'm' } };
    expect(replyJson(error)).toBe(JSON.stringify(error));
  });
});
