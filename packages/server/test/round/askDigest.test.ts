import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { elicitRequest } from '../../src/ask/builders.ts';
import { askDigest } from '../../src/ask/asked.ts';
import { digestText } from '../../src/ask/digest.ts';

/**
 * An ask's digest tells a changed question from the one an answer was recorded for. A handler
 * that builds its ask anew each round shares the compiled schema, whose canonical text is kept;
 * the digest must still be exactly that of the ask as written out in full.
 */

const dateSchema = z.object({ date: z.string() });
const askDate = (destination: string) =>
  elicitRequest(`When would you like to fly to ${destination}?`, dateSchema);

/** The same ask as a plain object, with nothing the builders attach (no shared schema). */
const writtenOut = (ask: object) => JSON.parse(JSON.stringify(ask)) as ReturnType<typeof askDate>;

describe('askDigest', () => {
  test('an ask built again each round has the digest of the ask written out in full', () => {
    const first = askDate('Paris');
    const again = askDate('Paris');
    expect(again.params.requestedSchema).toBe(first.params.requestedSchema);
    expect(askDigest(first)).toBe(askDigest(writtenOut(first)));
    expect(askDigest(again)).toBe(askDigest(first));
  });

  test('a changed message or schema under the same compiled type changes the digest', () => {
    expect(askDigest(askDate('Rome'))).not.toBe(askDigest(askDate('Paris')));
    expect(askDigest(askDate('Rome'))).toBe(askDigest(writtenOut(askDate('Rome'))));
    const other = elicitRequest(
      'When would you like to fly to Rome?',
      z.object({ day: z.string() }),
    );
    expect(askDigest(other)).not.toBe(askDigest(askDate('Rome')));
  });

  test('a message with quotes, escapes and non-ASCII digests as the ask written out', () => {
    const tricky = elicitRequest('Say "où?"\n\t\\ — 東京 \u2028', dateSchema);
    expect(askDigest(tricky)).toBe(askDigest(writtenOut(tricky)));
  });
});

describe('digestText', () => {
  test('is FNV-1a 64 (the published test vectors)', () => {
    expect(digestText('')).toBe('cbf29ce484222325');
    expect(digestText('a')).toBe('af63dc4c8601ec8c');
    expect(digestText('foobar')).toBe('85944171f73967e8');
  });
});
