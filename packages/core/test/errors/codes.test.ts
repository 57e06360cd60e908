import { describe, expect, test } from 'vitest';

import {
  JSON_RPC_ERRORS,
  httpStatusOfAnswer,
  jsonRpcError,
  type JsonRpcErrorKind,
} from '../../src/index.ts';

const kinds: [string, JsonRpcErrorKind][] = Object.entries(JSON_RPC_ERRORS);

describe('JSON_RPC_ERRORS', () => {
  test('every row is a reserved JSON-RPC code with an HTTP status and says when it is sent', () => {
    for (const [name, kind] of kinds) {
      expect(Number.isSafeInteger(kind.code), name).toBe(true);
      expect(kind.code >= -32768 && kind.code <= -32000, name).toBe(true);
      expect(kind.httpStatus >= 200 && kind.httpStatus <= 599, name).toBe(true);
      expect(kind.when.length, name).toBeGreaterThan(20);
      // The docs' table is built from it: a pipe would split its cell.
      expect(kind.when, name).not.toContain('|');
    }
  });

  test('the in-band rows of a code agree on its status, so a bare code has one', () => {
    const statusOf = new Map<number, number>();
    for (const [name, kind] of kinds) {
      if (kind.inBand !== true) continue;
      expect(statusOf.get(kind.code) ?? kind.httpStatus, name).toBe(kind.httpStatus);
      statusOf.set(kind.code, kind.httpStatus);
    }
  });
});

describe('httpStatusOfAnswer', () => {
  test('the work’s errors are the answer (200), except what MCP 2026-07-28 makes a 400', () => {
    expect(httpStatusOfAnswer(JSON_RPC_ERRORS.invalidParams.code)).toBe(200);
    expect(httpStatusOfAnswer(JSON_RPC_ERRORS.internalError.code)).toBe(200);
    expect(httpStatusOfAnswer(JSON_RPC_ERRORS.eraMismatch.code)).toBe(200);
    expect(httpStatusOfAnswer(JSON_RPC_ERRORS.missingRequiredClientCapability.code)).toBe(400);
    expect(httpStatusOfAnswer(JSON_RPC_ERRORS.headerMismatch.code)).toBe(400);
  });

  test('a code the table does not hold (an author’s own, relayed) is the answer too', () => {
    expect(httpStatusOfAnswer(-32099)).toBe(200);
    expect(httpStatusOfAnswer(42)).toBe(200);
  });
});

describe('jsonRpcError', () => {
  test('the row’s code with the message, and data only when there is some', () => {
    expect(jsonRpcError('invalidParams', 'Invalid params: x')).toEqual({
      code: -32602,
      message: 'Invalid params: x',
    });
    expect(jsonRpcError('sessionNotFound', 'Session not found', { id: 'a' })).toEqual({
      code: -32001,
      message: 'Session not found',
      data: { id: 'a' },
    });
    expect('data' in jsonRpcError('internalError', 'Internal error')).toBe(false);
  });
});
