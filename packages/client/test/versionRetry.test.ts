import { describe, expect, test } from 'vitest';

import { UnsupportedProtocolVersionError } from '@parley/core';

import { retryAfterUnsupportedVersion } from '../src/versionRetry.ts';

const answered = (supported: string[]) => ({ supported, requested: '2026-07-28' });

describe('retryAfterUnsupportedVersion', () => {
  test('a list naming the modern version: try again as is, in any mode', () => {
    for (const mode of ['auto', 'modern', 'handshake'] as const) {
      expect(
        retryAfterUnsupportedVersion(mode, answered(['2026-07-28', '2025-11-25']), 'x', null),
      ).toBe('retry');
    }
  });

  test("handshake versions only: a handshake session in 'auto', a clear error in 'modern'", () => {
    expect(retryAfterUnsupportedVersion('auto', answered(['2025-06-18']), 'x', null)).toBe(
      'retry-on-handshake',
    );
    expect(() =>
      retryAfterUnsupportedVersion('modern', answered(['2025-06-18']), 'http://h/mcp', null),
    ).toThrow(
      "Client: mode 'modern' needs a server that speaks MCP 2026-07-28, but http://h/mcp does not (it offers 2025-06-18). Use mode 'auto' to fall back to the handshake era.",
    );
  });

  test('nothing in common: the typed error with what the server offered', () => {
    const cause = new Error('-32022');
    let error: unknown;
    try {
      retryAfterUnsupportedVersion('auto', answered(['2031-01-01']), 'x', cause);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as UnsupportedProtocolVersionError).data).toEqual(answered(['2031-01-01']));
    expect((error as Error).cause).toBe(cause);
  });
});
