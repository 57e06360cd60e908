import { describe, expect, test } from 'vitest';

import {
  HANDSHAKE_PROTOCOL_VERSIONS,
  LATEST_HANDSHAKE_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
  eraOf,
  isModernVersion,
  isProtocolVersion,
  isSupportedVersion,
} from '../src/index.ts';

describe('protocol version lists', () => {
  test('the modern version is 2026-07-28 and is the only modern version', () => {
    expect(MODERN_PROTOCOL_VERSION).toBe('2026-07-28');
    expect(MODERN_PROTOCOL_VERSIONS).toEqual(['2026-07-28']);
  });

  test('the handshake versions are the ones the SDK negotiates, newest first', () => {
    expect(HANDSHAKE_PROTOCOL_VERSIONS).toEqual([
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
      '2024-11-05',
      '2024-10-07',
    ]);
    expect(LATEST_HANDSHAKE_PROTOCOL_VERSION).toBe(HANDSHAKE_PROTOCOL_VERSIONS[0]);
  });

  test('supported versions are modern first, then handshake', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual([
      ...MODERN_PROTOCOL_VERSIONS,
      ...HANDSHAKE_PROTOCOL_VERSIONS,
    ]);
  });

  test('the lists cannot be changed at run time', () => {
    expect(Object.isFrozen(SUPPORTED_PROTOCOL_VERSIONS)).toBe(true);
    expect(() => (HANDSHAKE_PROTOCOL_VERSIONS as string[]).push('2099-01-01')).toThrow(TypeError);
  });
});

describe('isProtocolVersion', () => {
  test.each(['2025-11-25', '2026-07-28', '1900-01-01'])('accepts %s', (v) => {
    expect(isProtocolVersion(v)).toBe(true);
  });
  test.each(['', '2025-11', 'latest', '2025-11-25 ', 20251125, null, undefined])(
    'refuses %j',
    (v) => {
      expect(isProtocolVersion(v)).toBe(false);
    },
  );
});

describe('isSupportedVersion', () => {
  test('is true for every listed version and false for others', () => {
    for (const v of SUPPORTED_PROTOCOL_VERSIONS) expect(isSupportedVersion(v)).toBe(true);
    expect(isSupportedVersion('2024-01-01')).toBe(false);
    expect(isSupportedVersion('2027-01-01')).toBe(false);
  });
});

describe('isModernVersion and eraOf', () => {
  test('every handshake version is handshake era', () => {
    for (const v of HANDSHAKE_PROTOCOL_VERSIONS) {
      expect(isModernVersion(v)).toBe(false);
      expect(eraOf(v)).toBe('handshake');
    }
  });

  test('2026-07-28 is modern', () => {
    expect(isModernVersion('2026-07-28')).toBe(true);
    expect(eraOf('2026-07-28')).toBe('modern');
  });

  test('the day before the modern version is still handshake era', () => {
    expect(isModernVersion('2026-07-27')).toBe(false);
    expect(eraOf('2026-07-27')).toBe('handshake');
  });

  test('a later revision than this package knows is modern', () => {
    expect(isModernVersion('2027-03-01')).toBe(true);
    expect(eraOf('2027-03-01')).toBe('modern');
  });

  test('a malformed version is not modern and has no era', () => {
    expect(isModernVersion('draft')).toBe(false);
    expect(() => eraOf('draft')).toThrow(TypeError);
    expect(() => eraOf('draft')).toThrow(/^eraOf: "draft" is not an MCP protocol version/);
  });
});
