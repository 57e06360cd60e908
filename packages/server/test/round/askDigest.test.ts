import type { InputRequest } from '@parley/core';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { elicitRequest, rootsRequest } from '../../src/ask/builders.ts';
import { askDigest, declaredDigest } from '../../src/ask/asked.ts';
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

describe('digests sealed into live tokens', () => {
  // A flow's token carries the digest of every ask it made; a digest that changed between two
  // releases would make a flow in progress across a deploy see its questions as new ones.
  const handWritten: InputRequest = {
    method: 'elicitation/create',
    params: {
      requestedSchema: {
        type: 'object',
        required: ['b'],
        properties: {
          b: { type: 'string', title: 'Bé "q"' },
          a: { type: 'boolean', default: true },
        },
      },
      mode: 'form',
      message: 'Hand-written\n東京',
    },
  };
  const sampling: InputRequest = {
    method: 'sampling/createMessage',
    params: {
      maxTokens: 50,
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }],
      // A key whose value is undefined, as a handler may leave one: not part of the JSON.
      metadata: { z: [1, 2.5, null], a: { y: undefined, x: false } as { x: boolean } },
    },
  };
  const url: InputRequest = {
    method: 'elicitation/create',
    params: { mode: 'url', message: 'Sign in', url: 'https://example.com/x', elicitationId: 'e1' },
  };

  test('an ask digests as FNV-1a of its JSON with keys sorted, undefined left out', () => {
    expect(askDigest(handWritten)).toBe(
      digestText(
        '{"method":"elicitation/create","params":{"message":"Hand-written\\n東京","mode":"form",' +
          '"requestedSchema":{"properties":{"a":{"default":true,"type":"boolean"},' +
          '"b":{"title":"Bé \\"q\\"","type":"string"}},"required":["b"],"type":"object"}}}',
      ),
    );
    expect(askDigest(sampling)).toBe(
      digestText(
        '{"method":"sampling/createMessage","params":{"maxTokens":50,' +
          '"messages":[{"content":{"text":"Summarise","type":"text"},"role":"user"}],' +
          '"metadata":{"a":{"x":false},"z":[1,2.5,null]}}}',
      ),
    );
  });

  test('the digests of known asks are what earlier releases sealed', () => {
    const form = elicitRequest(
      'When would you like to fly to Paris?',
      z.object({ date: z.string(), seats: z.number().int().optional() }),
    );
    expect({
      form: askDigest(form),
      declared: declaredDigest(form),
      handWritten: askDigest(handWritten),
      sampling: askDigest(sampling),
      roots: askDigest(rootsRequest()),
      url: askDigest(url),
    }).toEqual({
      form: '2ea062e508ae40f5',
      declared: '0bb596f34c425109',
      handWritten: '0f4ad5f29c479917',
      sampling: '4470d559dd5c30bc',
      roots: '27c21121bae56366',
      url: 'dd7037c05da48843',
    });
  });
});

describe('digestText', () => {
  test('is FNV-1a 64 (the published test vectors)', () => {
    expect(digestText('')).toBe('cbf29ce484222325');
    expect(digestText('a')).toBe('af63dc4c8601ec8c');
    expect(digestText('foobar')).toBe('85944171f73967e8');
  });
});
