import { decodeBase64Url, encodeBase64Url, isCanonicalBase64Url } from '../base64url.ts';
import { sha256 } from '../sha256.ts';
import type { SealingEngine } from './engine.ts';

/** `globalThis.crypto` where it has `subtle` and `getRandomValues`, else `undefined`. */
export function loadWebCrypto(): Crypto | undefined {
  const crypto = (globalThis as { crypto?: Crypto }).crypto;
  return typeof crypto?.subtle?.encrypt === 'function' &&
    typeof crypto.getRandomValues === 'function'
    ? crypto
    : undefined;
}

// WebCrypto's `getRandomValues` refuses more than 65 536 bytes per call.
const MAX_RANDOM_PER_CALL = 65_536;

/**
 * The WebCrypto engine: Deno, Bun, browsers, Cloudflare Workers, Vercel Edge and Node alike.
 * Every operation that WebCrypto makes asynchronous is asynchronous here; the rest is plain code.
 */
export function createWebCryptoEngine(crypto: Crypto): SealingEngine<CryptoKey> {
  const { subtle } = crypto;
  const encoder = new TextEncoder();
  // Not `fatal`: only authenticated plaintext, which the sealer encoded itself, is ever decoded.
  const decoder = new TextDecoder();
  // WebCrypto's typings want ArrayBuffer-backed views; ours always are.
  const view = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>;

  return {
    name: 'webcrypto',
    async hkdf(secret, salt, info, length) {
      const base = await subtle.importKey('raw', view(secret), 'HKDF', false, ['deriveBits']);
      const bits = await subtle.deriveBits(
        { name: 'HKDF', hash: 'SHA-256', salt: view(salt), info: view(info) },
        base,
        length * 8,
      );
      return new Uint8Array(bits);
    },
    importAesKey(raw) {
      return subtle.importKey('raw', view(raw), { name: 'AES-GCM', length: 256 }, false, [
        'encrypt',
        'decrypt',
      ]);
    },
    // In plain code: `subtle.digest` would cost an await (on Node, a thread-pool round trip)
    // per token for a hash of a few hundred public bytes.
    sha256: (data) => sha256(typeof data === 'string' ? encoder.encode(data) : data),
    randomFill(target, offset, length) {
      for (let done = 0; done < length; done += MAX_RANDOM_PER_CALL) {
        const size = Math.min(MAX_RANDOM_PER_CALL, length - done);
        crypto.getRandomValues(target.subarray(offset + done, offset + done + size));
      }
    },
    async encrypt(key, nonce, aad, plaintext, header) {
      const sealed = await subtle.encrypt(
        { name: 'AES-GCM', iv: view(nonce), additionalData: view(aad), tagLength: 128 },
        key,
        view(plaintext),
      );
      const out = new Uint8Array(header.length + sealed.byteLength);
      out.set(header, 0);
      out.set(new Uint8Array(sealed), header.length);
      return out;
    },
    async decrypt(key, nonce, aad, sealed) {
      if (sealed.length < 16) return undefined;
      try {
        const plain = await subtle.decrypt(
          { name: 'AES-GCM', iv: view(nonce), additionalData: view(aad), tagLength: 128 },
          key,
          view(sealed),
        );
        return new Uint8Array(plain);
      } catch {
        return undefined;
      }
    },
    encodeBase64Url: encodeBase64Url,
    decodeBase64Url: (text, start) =>
      isCanonicalBase64Url(text, start) ? decodeBase64Url(text, start) : undefined,
    encodeUtf8: (text) => encoder.encode(text),
    decodeUtf8: (bytes) => decoder.decode(bytes),
  };
}
