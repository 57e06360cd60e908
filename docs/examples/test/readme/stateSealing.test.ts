/**
 * The examples of packages/state-sealing/README.md: the sealer example run, and the token format
 * it describes checked against a real token, opened by hand with the key derivation and layout
 * the README gives (not with the package's code).
 */
import { execFile } from 'node:child_process';
import { createDecipheriv, createHash, hkdfSync } from 'node:crypto';
import { promisify } from 'node:util';

import { expect, test } from 'vitest';

import { createRequestStateSealer } from '@parley/state-sealing';

import { nodeArgs, quoted, repoRoot } from '../support.ts';

test('readme/state-sealing/sealer.ts prints readme/state-sealing/sealer.out.txt', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    nodeArgs('readme/state-sealing/sealer.ts'),
    { cwd: repoRoot },
  );
  expect(stdout).toBe(`${quoted('readme/state-sealing/sealer.out.txt')}\n`);
});

test('a real token has the layout readme/state-sealing/tokenFormat.txt gives', async () => {
  const format = quoted('readme/state-sealing/tokenFormat.txt');
  const sizes = Object.fromEntries(
    [...format.matchAll(/(\w+)\[(\d+)\]/g)].map(([, name, bytes]) => [
      name!,
      Number(bytes),
    ]),
  );
  expect(sizes.claims).toBe(
    sizes.iat! + sizes.exp! + sizes.audience! + sizes.binding!,
  );

  const secret = 'a'.repeat(32) + 'b'.repeat(32);
  const now = 1_790_000_000_000;
  const sealer = createRequestStateSealer({
    audience: 'booking-server',
    keys: [secret],
    now: () => now,
    ttlMs: 600_000,
  });
  const binding = { method: 'tools/call', target: 'book_trip' };
  const state = '{"step":"need-date"}';
  const token = await sealer.seal(state, binding);

  const prefix = /^"([^"]+)"/.exec(format)?.[1] ?? '';
  expect(prefix).toBe('ps1.');
  expect(token.startsWith(prefix)).toBe(true);
  const bytes = Buffer.from(token.slice(prefix.length), 'base64url');
  expect(bytes.length).toBe(
    sizes.kid! + sizes.nonce! + sizes.claims! + state.length + sizes.tag!,
  );

  // Derived as the README's bullets say: HKDF-SHA256 of the secret's UTF-8 bytes.
  const derive = (info: string, length: number) =>
    Buffer.from(
      hkdfSync('sha256', secret, 'parley/state-sealing', info, length),
    );
  const kid = bytes.subarray(0, sizes.kid);
  const nonce = bytes.subarray(sizes.kid, sizes.kid! + sizes.nonce!);
  expect(kid).toEqual(derive('parley/state-sealing/v1 key id', 4));

  const decipher = createDecipheriv(
    'aes-256-gcm',
    derive('parley/state-sealing/v1 aes-256-gcm key', 32),
    nonce,
  );
  decipher.setAAD(Buffer.concat([Buffer.from(prefix), kid, nonce]));
  decipher.setAuthTag(bytes.subarray(bytes.length - sizes.tag!));
  const plain = Buffer.concat([
    decipher.update(
      bytes.subarray(sizes.kid! + sizes.nonce!, bytes.length - sizes.tag!),
    ),
    decipher.final(),
  ]);

  expect(plain.readUIntBE(0, sizes.iat!)).toBe(now);
  expect(plain.readUIntBE(sizes.iat!, sizes.exp!)).toBe(now + 600_000);
  const audience = plain.subarray(12, 12 + sizes.audience!);
  expect(audience).toEqual(
    createHash('sha256')
      .update('parley/state-sealing/v1 audience\nbooking-server')
      .digest()
      .subarray(0, sizes.audience),
  );
  expect(plain.subarray(sizes.claims!).toString('utf8')).toBe(state);
});
