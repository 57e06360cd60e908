import { expect, test, vi } from 'vitest';

import { RequestStateError, type RequestStateErrorReason } from '../src/index.ts';

test('carries its reason, a name and an optional cause', () => {
  const cause = new Error('inner');
  const error = new RequestStateError('expired', 'too late', { cause });
  expect(error).toBeInstanceOf(Error);
  expect(error.reason).toBe('expired');
  expect(error.name).toBe('RequestStateError');
  expect(error.message).toBe('too late');
  expect(error.cause).toBe(cause);
  expect(new RequestStateError('tampered').message).toBe('requestState rejected: tampered');
});

test('refuses a reason outside the vocabulary', () => {
  expect(() => new RequestStateError('nope' as RequestStateErrorReason)).toThrow(TypeError);
});

test('instanceof works across copies of the package (ESM beside CJS)', async () => {
  vi.resetModules();
  const other = await import('../src/requestStateError.ts');
  expect(other.RequestStateError).not.toBe(RequestStateError);
  expect(new other.RequestStateError('replayed')).toBeInstanceOf(RequestStateError);
  expect(new RequestStateError('replayed')).toBeInstanceOf(other.RequestStateError);
  expect(new Error('x')).not.toBeInstanceOf(RequestStateError);
  expect({ reason: 'replayed' }).not.toBeInstanceOf(RequestStateError);
});

test('an author’s subclass keeps ordinary instanceof', () => {
  class MyError extends RequestStateError {}
  expect(new MyError('malformed')).toBeInstanceOf(MyError);
  expect(new MyError('malformed')).toBeInstanceOf(RequestStateError);
  expect(new RequestStateError('malformed')).not.toBeInstanceOf(MyError);
});
