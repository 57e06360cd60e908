import type * as NodeBuffer from 'node:buffer';
import type * as NodeCrypto from 'node:crypto';

import type { SealingEngine } from './engine.ts';

type KeyObject = NodeCrypto.KeyObject;

/** What the engine takes from Node: `node:crypto` and `Buffer` (for fast base64url and UTF-8). */
export interface NodeModules {
  crypto: typeof NodeCrypto;
  Buffer: typeof NodeBuffer.Buffer;
}

/**
 * `node:crypto`, reached through `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno) instead of
 * an `import`. There is no import statement for a bundler to follow, so the package's single
 * entry stays safe for edge bundles, and the lookup is synchronous, so the engine is chosen when
 * the sealer is created. `undefined` where the runtime has no such module.
 */
export function loadNodeModules(): NodeModules | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof proc?.getBuiltinModule !== 'function') return undefined;
  let crypto: Partial<typeof NodeCrypto> | undefined;
  let Buffer: unknown;
  try {
    crypto = proc.getBuiltinModule('node:crypto') as typeof crypto;
    Buffer = (proc.getBuiltinModule('node:buffer') as Partial<typeof NodeBuffer> | undefined)
      ?.Buffer;
  } catch {
    return undefined;
  }
  // Partial polyfills (some edge runtimes' Node compatibility layers) lack pieces we need.
  const complete =
    typeof crypto?.createCipheriv === 'function' &&
    typeof crypto.createDecipheriv === 'function' &&
    typeof crypto.createHash === 'function' &&
    typeof crypto.createSecretKey === 'function' &&
    typeof crypto.hkdfSync === 'function' &&
    typeof crypto.randomFillSync === 'function' &&
    typeof Buffer === 'function';
  return complete && passesSelfTest(crypto as typeof NodeCrypto)
    ? { crypto: crypto as typeof NodeCrypto, Buffer: Buffer as typeof NodeBuffer.Buffer }
    : undefined;
}

/**
 * A known-answer test (GCM spec test case 13: zero key, zero nonce, no data), once per process:
 * a compatibility layer whose functions exist but throw "not implemented", or compute something
 * else, is passed over for WebCrypto instead of failing on the first token.
 */
function passesSelfTest(crypto: typeof NodeCrypto): boolean {
  try {
    const cipher = crypto.createCipheriv('aes-256-gcm', new Uint8Array(32), new Uint8Array(12), {
      authTagLength: 16,
    });
    cipher.final();
    const tag = Array.from(cipher.getAuthTag(), (byte) => byte.toString(16).padStart(2, '0'));
    const okm = crypto.hkdfSync(
      'sha256',
      new Uint8Array(32),
      new Uint8Array(0),
      new Uint8Array(0),
      4,
    );
    return (
      tag.join('') === '530f8afbc74536b9a963b4f1c4cb738b' &&
      Array.from(new Uint8Array(okm)).join(',') === '223,114,4,84'
    );
  } catch {
    return false;
  }
}

type OneShotHash = (algorithm: string, data: Uint8Array | string, encoding: 'buffer') => Uint8Array;

// Random bytes are drawn in blocks: one call into OpenSSL per few hundred nonces instead of one
// per token.
const RANDOM_BLOCK = 4096;

/**
 * The `node:crypto` engine. On Node it is several times faster than WebCrypto for small tokens:
 * every call is synchronous, where each WebCrypto call is a round trip to a thread pool.
 */
export function createNodeEngine({ crypto, Buffer }: NodeModules): SealingEngine<KeyObject> {
  const pool = Buffer.alloc(RANDOM_BLOCK);
  // `crypto.hash` (Node ≥ 20.12) skips the Hash object: a third faster for short inputs.
  const oneShotHash = (crypto as { hash?: OneShotHash }).hash;
  let poolOffset = RANDOM_BLOCK;

  return {
    name: 'node',
    hkdf(secret, salt, info, length) {
      return Promise.resolve(new Uint8Array(crypto.hkdfSync('sha256', secret, salt, info, length)));
    },
    importAesKey(raw) {
      return Promise.resolve(crypto.createSecretKey(raw));
    },
    sha256: oneShotHash
      ? (data) => oneShotHash('sha256', data, 'buffer')
      : (data) => crypto.createHash('sha256').update(data).digest(),
    randomFill(target, offset, length) {
      if (length > RANDOM_BLOCK) {
        crypto.randomFillSync(target, offset, length);
        return;
      }
      if (poolOffset + length > RANDOM_BLOCK) {
        crypto.randomFillSync(pool);
        poolOffset = 0;
      }
      // Nonces are public, so a pool in memory reveals nothing; each byte is used once.
      target.set(pool.subarray(poolOffset, poolOffset + length), offset);
      poolOffset += length;
    },
    encrypt(key, nonce, aad, plaintext, header) {
      const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce, { authTagLength: 16 });
      cipher.setAAD(aad);
      const head = cipher.update(plaintext);
      const tail = cipher.final();
      return Buffer.concat([header, head, tail, cipher.getAuthTag()]);
    },
    decrypt(key, nonce, aad, sealed) {
      if (sealed.length < 16) return undefined;
      const split = sealed.length - 16;
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: 16 });
      decipher.setAAD(aad);
      decipher.setAuthTag(sealed.subarray(split));
      const head = decipher.update(sealed.subarray(0, split));
      try {
        const tail = decipher.final();
        return tail.length === 0 ? head : Buffer.concat([head, tail]);
      } catch {
        return undefined;
      }
    },
    encodeBase64Url(bytes) {
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
    },
    decodeBase64Url(text, start) {
      const encoded = start === 0 ? text : text.slice(start);
      const bytes = Buffer.from(encoded, 'base64url');
      // Node's decoder skips what is not base64url and ignores unused bits: the bytes encode back
      // to the very text only when it was canonical (a native round trip, several times cheaper
      // than checking the text character by character).
      return bytes.toString('base64url') === encoded ? bytes : undefined;
    },
    encodeUtf8(text) {
      return Buffer.from(text, 'utf8');
    },
    decodeUtf8(bytes) {
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    },
  };
}
