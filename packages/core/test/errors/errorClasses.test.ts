import { inspect } from 'node:util';

import { describe, expect, test } from 'vitest';

import {
  EraMismatchError,
  InvalidAnswerError,
  InvalidInputResponsesError,
  InvalidRequestStateError,
  RoundsExceededError,
  SessionClosedError,
  UnsupportedCapabilityError,
  toJsonRpcError,
  UnsupportedProtocolVersionError,
  UrlElicitationRequiredError,
} from '../../src/index.ts';

describe('EraMismatchError', () => {
  test('an InputRequiredResult on a handshake connection reads as the seeds say', () => {
    const error = new EraMismatchError({
      kind: 'tool',
      name: 'book_flight',
      protocolVersion: '2025-11-25',
      used: 'inputRequired',
    });
    expect(error.code).toBe('era_mismatch');
    expect(error.message).toBe(
      "Tool 'book_flight' returned an InputRequiredResult to request client input, but the " +
        'multi-round-trip result type (SEP-2322) only exists at MCP 2026-07-28; this connection ' +
        "negotiated '2025-11-25'. Use ctx.ask(key, ask), which asks on both eras (here: a request " +
        'to the client, awaited), or ctx.elicit() for server-initiated input on handshake-era ' +
        'connections.',
    );
  });

  test('ctx.elicit() on a modern request names the API, version and the guard pattern', () => {
    const error = new EraMismatchError({
      kind: 'tool',
      name: 'collect_user_info',
      protocolVersion: '2026-07-28',
      used: 'ctx.elicit()',
    });
    expect(error.message).toBe(
      "Tool 'collect_user_info' called ctx.elicit() to request client input, but " +
        'server-initiated requests do not exist at MCP 2026-07-28 (SEP-2322, SEP-2575); this ' +
        "request negotiated '2026-07-28'. Use ctx.ask(key, elicitRequest(...)), which asks on both " +
        'eras (here: a round the client answers and retries), or return inputRequired({ ' +
        'inputRequests }) (the guard pattern) for client input on modern connections.',
    );
  });

  test.each([
    ['prompt', "Prompt 'summarize'"],
    ['resource', "Resource 'summarize'"],
    ['resourceTemplate', "Resource template 'summarize'"],
  ] as const)('names a %s as such', (kind, label) => {
    const error = new EraMismatchError({
      kind,
      name: 'summarize',
      protocolVersion: '2025-06-18',
      used: 'inputRequired',
    });
    expect(error.message.startsWith(`${label} returned an InputRequiredResult`)).toBe(true);
    expect(error.data).toEqual({
      kind,
      name: 'summarize',
      protocolVersion: '2025-06-18',
      used: 'inputRequired',
    });
  });
});

describe('UnsupportedCapabilityError', () => {
  test('says what the client does not support', () => {
    const error = new UnsupportedCapabilityError({
      feature: 'elicitation',
      requiredCapabilities: { elicitation: { form: {} } },
    });
    expect(error.message).toBe('elicitation not supported by this client');
    expect(error.code).toBe('unsupported_capability');
    expect(error.data?.requiredCapabilities).toEqual({ elicitation: { form: {} } });
  });

  test('takes a more precise message when the cause is not the client', () => {
    const error = new UnsupportedCapabilityError(
      { feature: 'elicitation', requiredCapabilities: { elicitation: { form: {} } } },
      { message: 'elicitation needs a session' },
    );
    expect(error.message).toBe('elicitation needs a session');
  });
});

describe('RoundsExceededError', () => {
  test('names the method and the limit and carries the last ask', () => {
    const lastResult = { resultType: 'input_required' as const, requestState: 'again' };
    const error = new RoundsExceededError('tools/call', { maxRounds: 10, lastResult });
    expect(error.message).toBe(
      'tools/call still asked for input after 10 rounds (maxRounds); the flow was stopped.',
    );
    expect(error.data?.lastResult).toBe(lastResult);
    expect(new RoundsExceededError('prompts/get', { maxRounds: 1, lastResult }).message).toContain(
      'after 1 round (',
    );
  });
});

describe('InvalidAnswerError', () => {
  test('names the key and field', () => {
    expect(
      new InvalidAnswerError({ key: 'user', field: 'age', reason: 'expected an integer' }).message,
    ).toBe("Invalid answer to 'user' in field 'age': expected an integer");
    expect(new InvalidAnswerError({ reason: 'content is missing' }).message).toBe(
      'Invalid answer: content is missing',
    );
  });

  test('the reason that quotes the answer is for the person: no string, JSON or inspection shows it', () => {
    const error = new InvalidAnswerError(
      { key: 'login', field: 'password', reason: 'must be at least 12 characters long' },
      { reasonWithAnswer: 'must be at least 12 characters long, got "hunter2-4417"' },
    );
    expect(error.message).toBe(
      "Invalid answer to 'login' in field 'password': must be at least 12 characters long",
    );
    expect(error.reasonWithAnswer()).toBe(
      'must be at least 12 characters long, got "hunter2-4417"',
    );
    expect(error.messageWithAnswer()).toBe(
      `Invalid answer to 'login' in field 'password': must be at least 12 characters long, got "hunter2-4417"`,
    );
    const shown = [
      String(error),
      error.stack ?? '',
      JSON.stringify(error),
      JSON.stringify(toJsonRpcError(error)),
      inspect(error),
      inspect(error, { showHidden: true, getters: true, depth: Infinity }),
      inspect(new Error('wrapped', { cause: error }), { showHidden: true, depth: Infinity }),
      ...Object.keys(error).map((key) => JSON.stringify((error as never)[key])),
    ];
    for (const text of shown) expect(text).not.toContain('hunter2');
  });

  test('without a reason that quotes the answer, reasonWithAnswer is the reason', () => {
    const error = new InvalidAnswerError({ field: 'age', reason: 'is required' });
    expect(error.reasonWithAnswer()).toBe('is required');
    expect(error.messageWithAnswer()).toBe(error.message);
  });
});

describe('InvalidRequestStateError', () => {
  test('keeps the reason for the server log', () => {
    const error = new InvalidRequestStateError({ reason: 'expired' });
    expect(error.code).toBe('invalid_request_state');
    expect(error.message).toBe('Invalid or expired requestState (expired)');
    expect(error.data).toEqual({ reason: 'expired' });
  });
});

describe('InvalidInputResponsesError', () => {
  test('names the entry', () => {
    expect(
      new InvalidInputResponsesError({ key: 'date', reason: 'expected an object' }).message,
    ).toBe("Invalid inputResponses (entry 'date'): expected an object");
  });
});

describe('UnsupportedProtocolVersionError', () => {
  test('lists what is supported', () => {
    const error = new UnsupportedProtocolVersionError({
      supported: ['2026-07-28', '2025-11-25'],
      requested: '1900-01-01',
    });
    expect(error.message).toBe(
      "Unsupported protocol version '1900-01-01'; supported: 2026-07-28, 2025-11-25",
    );
  });
});

describe('UrlElicitationRequiredError', () => {
  const page = {
    message: 'Connect your calendar',
    url: 'https://calendar.example.com/connect?e=1',
    elicitationId: 'e-1',
  };

  test('carries the pages in URL mode, with a message that counts them', () => {
    const one = new UrlElicitationRequiredError([page]);
    expect(one.code).toBe('url_elicitation_required');
    expect(one.message).toBe('This request needs the user to complete a URL elicitation first.');
    expect(one.data).toEqual({ elicitations: [{ mode: 'url', ...page }] });
    const two = new UrlElicitationRequiredError([page, { ...page, elicitationId: 'e-2' }], {
      message: 'Two accounts to link',
    });
    expect(two.message).toBe('Two accounts to link');
    expect(two.data?.elicitations.map((e) => e.elicitationId)).toEqual(['e-1', 'e-2']);
  });

  test.each([
    [[], /non-empty list/],
    [[{ ...page, url: 'not a url' }], /elicitations\[0\]\.url must be an absolute URL/],
    [
      [{ ...page, elicitationId: '' }],
      /elicitations\[0\]\.elicitationId must be a non-empty string/,
    ],
    [[page, null], /elicitations\[1\] must be an object/],
  ])('refuses %j with a TypeError that names the problem', (elicitations, message) => {
    expect(() => new UrlElicitationRequiredError(elicitations as never)).toThrow(TypeError);
    expect(() => new UrlElicitationRequiredError(elicitations as never)).toThrow(message);
  });
});

describe('SessionClosedError', () => {
  test('says why the request to the client was abandoned, and maps to -32603 with that message', () => {
    const error = new SessionClosedError({ reason: 'shutdown', sessionId: 's-1' });
    expect(error).toBeInstanceOf(SessionClosedError);
    expect(error.code).toBe('session_closed');
    expect(error.data).toEqual({ reason: 'shutdown', sessionId: 's-1' });
    expect(error.message).toBe(
      'The request to the client was abandoned: the server is shutting down; the client may retry on another server.',
    );
    expect(toJsonRpcError(error)).toEqual({ code: -32603, message: error.message });
    expect(new SessionClosedError({ reason: 'stream_lost' }).message).toMatch(
      /stream closed and did not come back within the resume window/,
    );
  });
});
