import { describe, expect, test } from 'vitest';

import {
  EraMismatchError,
  INVALID_REQUEST_STATE_MESSAGE,
  InvalidAnswerError,
  InvalidInputResponsesError,
  InvalidRequestStateError,
  JSON_RPC_ERRORS,
  JSON_RPC_ERROR_CODES,
  ParleyError,
  RoundsExceededError,
  UnsupportedCapabilityError,
  UnsupportedProtocolVersionError,
  UrlElicitationRequiredError,
  fromJsonRpcError,
  toJsonRpcError,
  type JsonRpcErrorKind,
} from '../../src/index.ts';

describe('JSON_RPC_ERROR_CODES', () => {
  test('holds the codes of the spec under their names, and every row of the table', () => {
    expect(JSON_RPC_ERROR_CODES).toMatchObject({
      parseError: -32700,
      invalidRequest: -32600,
      methodNotFound: -32601,
      invalidParams: -32602,
      internalError: -32603,
      headerMismatch: -32020,
      missingRequiredClientCapability: -32021,
      unsupportedProtocolVersion: -32022,
      urlElicitationRequired: -32042,
    });
    expect(Object.keys(JSON_RPC_ERROR_CODES)).toEqual(Object.keys(JSON_RPC_ERRORS));
    for (const [name, kind] of Object.entries(JSON_RPC_ERRORS)) {
      expect(JSON_RPC_ERROR_CODES[name as keyof typeof JSON_RPC_ERRORS]).toBe(kind.code);
    }
    expect(Object.isFrozen(JSON_RPC_ERROR_CODES)).toBe(true);
    expect(Object.isFrozen(JSON_RPC_ERRORS.internalError)).toBe(true);
  });
});

describe('toJsonRpcError', () => {
  test('an invalid requestState always reads the same, whatever the reason', () => {
    for (const reason of ['tampered', 'expired', 'wrong-audience', 'replayed']) {
      expect(toJsonRpcError(new InvalidRequestStateError({ reason }))).toEqual({
        code: -32602,
        message: INVALID_REQUEST_STATE_MESSAGE,
        data: { reason: 'invalid_request_state' },
      });
    }
    expect(INVALID_REQUEST_STATE_MESSAGE).toBe('Invalid or expired requestState');
  });

  test('a missing capability is -32021 with requiredCapabilities', () => {
    const error = new UnsupportedCapabilityError({
      feature: 'sampling',
      requiredCapabilities: { sampling: {} },
    });
    expect(toJsonRpcError(error)).toEqual({
      code: -32021,
      message: 'sampling not supported by this client',
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  test('an unsupported version is -32022 with supported and requested', () => {
    const error = new UnsupportedProtocolVersionError({
      supported: ['2026-07-28'],
      requested: '1900-01-01',
    });
    expect(toJsonRpcError(error)).toEqual({
      code: -32022,
      message: error.message,
      data: { supported: ['2026-07-28'], requested: '1900-01-01' },
    });
  });

  test('a URL elicitation requirement is -32042 with the pages in data.elicitations', () => {
    const error = new UrlElicitationRequiredError([
      { message: 'Link GitHub', url: 'https://github.example/oauth', elicitationId: 'gh' },
    ]);
    expect(toJsonRpcError(error)).toEqual({
      code: -32042,
      message: error.message,
      data: {
        elicitations: [
          {
            mode: 'url',
            message: 'Link GitHub',
            url: 'https://github.example/oauth',
            elicitationId: 'gh',
          },
        ],
      },
    });
  });

  test('invalid answers and inputResponses are -32602 with their message, key and field', () => {
    const answer = new InvalidAnswerError({
      key: 'profile',
      field: 'age',
      reason: 'expected an integer',
    });
    expect(toJsonRpcError(answer)).toEqual({
      code: -32602,
      message: answer.message,
      data: {
        reason: 'invalid_answer',
        key: 'profile',
        field: 'age',
        problem: 'expected an integer',
      },
    });
    const responses = new InvalidInputResponsesError({ reason: 'not an object' });
    expect(toJsonRpcError(responses)).toEqual({
      code: -32602,
      message: responses.message,
      data: { reason: 'invalid_input_responses', problem: 'not an object' },
    });
  });

  test('a missing client capability is -32021 on the modern era and -32600 on the handshake era', () => {
    const error = new UnsupportedCapabilityError({
      feature: 'elicitation',
      requiredCapabilities: { elicitation: {} },
    });
    expect(toJsonRpcError(error).code).toBe(-32021);
    expect(toJsonRpcError(error, { era: 'modern' }).code).toBe(-32021);
    expect(toJsonRpcError(error, { era: 'handshake' })).toEqual({
      code: -32600,
      message: error.message,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  test('an unsupported version is -32000 on the handshake era, as its transports refuse one', () => {
    const error = new UnsupportedProtocolVersionError({
      supported: ['2025-11-25'],
      requested: '2099-01-01',
    });
    expect(toJsonRpcError(error, { era: 'handshake' })).toEqual({
      code: -32000,
      message: error.message,
      data: { supported: ['2025-11-25'], requested: '2099-01-01' },
    });
  });

  test('an era mismatch is the client’s request, not an internal error: -32600 on both eras', () => {
    const era = new EraMismatchError({
      kind: 'tool',
      name: 't',
      protocolVersion: '2025-11-25',
      used: 'inputRequired',
    });
    expect(toJsonRpcError(era)).toEqual({ code: -32600, message: era.message });
    expect(toJsonRpcError(era, { era: 'handshake' })).toEqual({
      code: -32600,
      message: era.message,
    });
  });

  test('no Parley error gets a code of MCP 2026-07-28 on a handshake-era connection', () => {
    const kinds: JsonRpcErrorKind[] = Object.values(JSON_RPC_ERRORS);
    const modernOnly = new Set(
      kinds.filter((kind) => kind.era === 'modern').map((kind) => kind.code),
    );
    expect([...modernOnly].sort((a, b) => a - b)).toEqual([-32022, -32021, -32020]);
    const everyKind = [
      new EraMismatchError({
        kind: 'prompt',
        name: 'p',
        protocolVersion: 'x',
        used: 'ctx.sample()',
      }),
      new UnsupportedCapabilityError({ feature: 'roots', requiredCapabilities: { roots: {} } }),
      new RoundsExceededError('tools/call', {
        maxRounds: 1,
        lastResult: { resultType: 'input_required', requestState: 'x' },
      }),
      new InvalidAnswerError({ reason: 'no' }),
      new InvalidRequestStateError({ reason: 'expired' }),
      new InvalidInputResponsesError({ reason: 'no' }),
      new UnsupportedProtocolVersionError({ supported: [], requested: 'x' }),
      new UrlElicitationRequiredError([
        { message: 'm', url: 'https://a.example/', elicitationId: 'a' },
      ]),
      new ParleyError('session_closed', 'closed'),
      new ParleyError('store_unavailable', 'down'),
      new ParleyError('task_cancelled', 'cancelled'),
      new ParleyError('internal', 'boom'),
    ];
    // One of each code a Parley error can carry: a new code must join this test.
    expect(new Set(everyKind.map((error) => error.code)).size).toBe(12);
    for (const error of everyKind) {
      expect(modernOnly.has(toJsonRpcError(error, { era: 'handshake' }).code)).toBe(false);
    }
  });

  test('server-side mistakes are -32603 with their message', () => {
    const rounds = new RoundsExceededError('tools/call', {
      maxRounds: 2,
      lastResult: { resultType: 'input_required', requestState: 'x' },
    });
    expect(toJsonRpcError(rounds)).toEqual({ code: -32603, message: rounds.message });
    expect(toJsonRpcError(new ParleyError('internal', 'boom'))).toEqual({
      code: -32603,
      message: 'boom',
    });
  });

  test('anything else is an internal error that does not leak its message', () => {
    expect(toJsonRpcError(new Error('db password is hunter2'))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    expect(toJsonRpcError('thrown string')).toEqual({ code: -32603, message: 'Internal error' });
  });

  test('a shared store that is down is an internal error; where it lives stays on the server', () => {
    const down = new ParleyError('store_unavailable', 'Redis at 10.0.0.5:6379 did not answer');
    expect(toJsonRpcError(down)).toEqual({ code: -32603, message: 'Internal error' });
  });
});

describe('fromJsonRpcError', () => {
  test('an invalid answer comes back typed, with its key and field', () => {
    const sent = new InvalidAnswerError({ key: 'trip', field: 'date', reason: 'expected a date' });
    const back = fromJsonRpcError(toJsonRpcError(sent));
    expect(back).toBeInstanceOf(InvalidAnswerError);
    expect(back?.data).toEqual({ key: 'trip', field: 'date', reason: 'expected a date' });
    expect(back?.message).toBe(sent.message);
  });

  test('invalid inputResponses come back typed, with the key', () => {
    const sent = new InvalidInputResponsesError({ key: 'a', reason: 'expected an object' });
    const back = fromJsonRpcError(toJsonRpcError(sent));
    expect(back).toBeInstanceOf(InvalidInputResponsesError);
    expect(back?.data).toEqual({ key: 'a', reason: 'expected an object' });
  });

  test('a bare -32602 stands for nothing Parley can type', () => {
    expect(fromJsonRpcError({ code: -32602, message: 'Invalid params' })).toBeUndefined();
  });

  test('-32022 becomes UnsupportedProtocolVersionError', () => {
    const wire = {
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2025-11-25', 7], requested: '2026-07-28' },
    };
    const error = fromJsonRpcError(wire);
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(error?.data).toEqual({ supported: ['2025-11-25'], requested: '2026-07-28' });
    expect(error?.cause).toBe(wire);
  });

  test('-32021 becomes UnsupportedCapabilityError naming the feature', () => {
    const url = fromJsonRpcError({
      code: -32021,
      message: 'Missing',
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    expect(url).toBeInstanceOf(UnsupportedCapabilityError);
    expect((url as UnsupportedCapabilityError).data?.feature).toBe('URL elicitation');
    expect(url?.message).toBe('Missing');
    const roots = fromJsonRpcError({
      code: -32021,
      message: 'Missing',
      data: { requiredCapabilities: { roots: {} } },
    });
    expect((roots as UnsupportedCapabilityError).data?.feature).toBe('roots');
    const sampling = fromJsonRpcError({
      code: -32021,
      message: 'Missing',
      data: { requiredCapabilities: { sampling: {} } },
    });
    expect((sampling as UnsupportedCapabilityError).data?.feature).toBe('sampling');
    const form = fromJsonRpcError({
      code: -32021,
      message: 'Missing',
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    expect((form as UnsupportedCapabilityError).data?.feature).toBe('elicitation');
  });

  test('a handshake-era missing capability becomes UnsupportedCapabilityError, old code or new', () => {
    const required = { requiredCapabilities: { elicitation: { form: {} } } };
    // -32600 now; -32603 from a Parley server of before, with the same data.
    for (const code of [-32600, -32603]) {
      const error = fromJsonRpcError({
        code,
        message: 'elicitation not supported',
        data: required,
      });
      expect(error).toBeInstanceOf(UnsupportedCapabilityError);
      expect((error as UnsupportedCapabilityError).data).toEqual({
        feature: 'elicitation',
        ...required,
      });
      expect(error?.message).toBe('elicitation not supported');
    }
    // Without the data, neither code stands for it.
    expect(fromJsonRpcError({ code: -32600, message: 'Invalid Request' })).toBeUndefined();
    expect(
      fromJsonRpcError({ code: -32603, message: 'x', data: { requiredCapabilities: 'no' } }),
    ).toBeUndefined();
  });

  test('a handshake-era unsupported version (-32000 with its data) becomes the typed error', () => {
    const error = fromJsonRpcError({
      code: -32000,
      message: 'Unsupported protocol version: 2099-01-01',
      data: { supported: ['2025-11-25'], requested: '2099-01-01' },
    });
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(error?.data).toEqual({ supported: ['2025-11-25'], requested: '2099-01-01' });
    // The endpoint's own -32000 refusals carry no such data.
    expect(fromJsonRpcError({ code: -32000, message: 'Bad Request: initialize first' })).toBe(
      undefined,
    );
  });

  test('-32042 becomes UrlElicitationRequiredError with the well-formed pages only', () => {
    const good = { mode: 'url', message: 'Pay', url: 'https://pay.example/1', elicitationId: 'p1' };
    const error = fromJsonRpcError({
      code: -32042,
      message: 'Payment needed',
      data: {
        elicitations: [good, { mode: 'url', message: 'no id', url: 'https://x.example' }, 7],
      },
    });
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect(error?.message).toBe('Payment needed');
    expect(error?.data).toEqual({ elicitations: [good] });
    // Nothing a client could open: no Parley meaning.
    expect(
      fromJsonRpcError({ code: -32042, message: 'x', data: { elicitations: [] } }),
    ).toBeUndefined();
    expect(fromJsonRpcError({ code: -32042, message: 'x' })).toBeUndefined();
  });

  test('an invalid requestState rejection becomes InvalidRequestStateError', () => {
    const error = fromJsonRpcError({
      code: -32602,
      message: INVALID_REQUEST_STATE_MESSAGE,
      data: { reason: 'invalid_request_state' },
    });
    expect(error).toBeInstanceOf(InvalidRequestStateError);
  });

  test('round-trips the errors a client can act on', () => {
    const originals = [
      new InvalidRequestStateError({ reason: 'expired' }),
      new UnsupportedCapabilityError({ feature: 'roots', requiredCapabilities: { roots: {} } }),
      new UnsupportedProtocolVersionError({ supported: ['2026-07-28'], requested: 'x' }),
      new UrlElicitationRequiredError([
        { message: 'm', url: 'https://a.example/', elicitationId: 'a' },
      ]),
    ];
    for (const original of originals) {
      for (const era of ['modern', 'handshake'] as const) {
        const back = fromJsonRpcError(toJsonRpcError(original, { era }));
        expect(back?.code).toBe(original.code);
      }
    }
  });

  test('other errors have no Parley meaning', () => {
    expect(fromJsonRpcError({ code: -32602, message: 'Bad params' })).toBeUndefined();
    expect(fromJsonRpcError({ code: -32601, message: 'Method not found' })).toBeUndefined();
    expect(
      fromJsonRpcError({ code: -32603, message: 'Internal error', data: 'x' }),
    ).toBeUndefined();
  });
});
