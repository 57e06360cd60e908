import { describe, expect, test } from 'vitest';

import { matchesFormat, type StringFormat } from '../src/formats.ts';

const cases: Record<StringFormat, { valid: string[]; invalid: string[] }> = {
  email: {
    valid: ['ada@example.com', 'a.b+c@sub.example.org', 'root@localhost'],
    invalid: ['', 'ada', 'ada@', '@example.com', 'a da@example.com', 'a@b@c'],
  },
  uri: {
    valid: ['https://example.com/path?q=1', 'mailto:ada@example.com', 'urn:isbn:0451450523'],
    invalid: ['', 'example.com', '/relative/path', 'https://exa mple.com', '1http://x'],
  },
  date: {
    valid: ['2026-08-01', '2024-02-29', '2000-02-29', '1999-12-31'],
    invalid: [
      '2026-8-1',
      '2026-02-30',
      '2023-02-29',
      '1900-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-08-01T00:00:00Z',
    ],
  },
  'date-time': {
    valid: [
      '2026-08-01T09:30:00Z',
      '2026-08-01t09:30:00.123z',
      '2026-08-01T09:30:00+02:00',
      '2016-12-31T23:59:60Z',
    ],
    invalid: [
      '2026-08-01',
      '2026-08-01 09:30:00Z',
      '2026-08-01T09:30:00',
      '2026-08-01T24:00:00Z',
      '2026-08-01T09:60:00Z',
      '2026-02-30T09:30:00Z',
      '2026-08-01T09:30:00+25:00',
    ],
  },
};

describe.each(Object.entries(cases))('format %s', (format, { valid, invalid }) => {
  test.each(valid)('accepts %j', (text) => {
    expect(matchesFormat(format as StringFormat, text)).toBe(true);
  });
  test.each(invalid)('refuses %j', (text) => {
    expect(matchesFormat(format as StringFormat, text)).toBe(false);
  });
});
