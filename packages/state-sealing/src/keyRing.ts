import type { SealingEngine } from './engines/engine.ts';

/** Secrets shorter than this are refused: AES-256 wants 256 bits of secret randomness. */
export const MIN_SECRET_BYTES = 32;

const utf8 = new TextEncoder();
// Fixed and public: HKDF's salt and info only separate domains here, the secret is the entropy.
const HKDF_SALT = utf8.encode('parley/state-sealing');
const AES_KEY_INFO = utf8.encode('parley/state-sealing/v1 aes-256-gcm key');
const KEY_ID_INFO = utf8.encode('parley/state-sealing/v1 key id');
const HEX = /^[0-9a-fA-F]+$/;

/** The derived ring: the key that seals and every key (by key id) that opens. */
export interface KeyRing<Key = unknown> {
  readonly sealKid: number;
  readonly sealKey: Key;
  readonly byKid: ReadonlyMap<number, Key>;
}

/**
 * Checks and copies the configured secrets. A string is used as its UTF-8 bytes, exactly as
 * given, so `keygen`'s 64 hex digits are a 64-byte secret, as with FastMCP's documented
 * `secrets.token_hex(32)` … `.encode()`. A string of hex digits only carries 4 bits per character,
 * so it must have at least 64 of them, even though 32 hex digits are 32 bytes long.
 */
export function normalizeSecrets(
  keys: ReadonlyArray<string | Uint8Array>,
  api: string,
): Uint8Array[] {
  if (!Array.isArray(keys)) {
    throw new TypeError(`${api}: keys must be an array of secrets (keys[0] seals, all open)`);
  }
  if (keys.length === 0) {
    throw new RangeError(
      `${api}: keys is empty; give at least one secret, or leave keys out for a per-process key`,
    );
  }
  const secrets = keys.map((key: unknown, index) => {
    let bytes: Uint8Array;
    if (typeof key === 'string') {
      if (HEX.test(key) && key.length < 2 * MIN_SECRET_BYTES) {
        throw new RangeError(
          `${api}: keys[${index}] is ${key.length} hex digits, i.e. ${Math.floor(key.length / 2)} bytes of secret; use at least ${2 * MIN_SECRET_BYTES} (npx @parley/state-sealing keygen)`,
        );
      }
      bytes = utf8.encode(key);
    } else if (key instanceof Uint8Array) {
      bytes = new Uint8Array(key); // a copy: later changes to the caller's array must not matter
    } else {
      throw new TypeError(`${api}: keys[${index}] must be a string or a Uint8Array`);
    }
    if (bytes.length < MIN_SECRET_BYTES) {
      throw new RangeError(
        `${api}: keys[${index}] is ${bytes.length} bytes; secrets must be at least ${MIN_SECRET_BYTES} bytes of secret randomness (npx @parley/state-sealing keygen)`,
      );
    }
    return bytes;
  });
  secrets.forEach((secret, index) => {
    const first = secrets.findIndex((other) => equalBytes(other, secret));
    if (first !== index) throw new RangeError(`${api}: keys[${index}] repeats keys[${first}]`);
  });
  return secrets;
}

let processSecret: Uint8Array | undefined;

/**
 * The key used when none is configured: random, made once per process (per loaded copy of the
 * package), never written anywhere. Every sealer without `keys` in this process shares it, so
 * they open each other's tokens; no other process can.
 */
export function processEphemeralSecret(engine: SealingEngine): Uint8Array {
  if (processSecret === undefined) {
    const secret = new Uint8Array(MIN_SECRET_BYTES);
    engine.randomFill(secret, 0, secret.length);
    processSecret = secret;
  }
  return processSecret;
}

/**
 * Derives, once per sealer, an AES-256-GCM key and a 32-bit key id from each secret with
 * HKDF-SHA256 under distinct info strings. The key id is public (it travels in the token) and
 * reveals nothing about the key, so a token names its key and opening needs no trial decryption.
 */
export async function deriveKeyRing<Key>(
  engine: SealingEngine<Key>,
  secrets: readonly Uint8Array[],
  api: string,
): Promise<KeyRing<Key>> {
  const derived = await Promise.all(
    secrets.map(async (secret) => {
      const [raw, id] = await Promise.all([
        engine.hkdf(secret, HKDF_SALT, AES_KEY_INFO, 32),
        engine.hkdf(secret, HKDF_SALT, KEY_ID_INFO, 4),
      ]);
      const kid = ((id[0]! << 24) | (id[1]! << 16) | (id[2]! << 8) | id[3]!) >>> 0;
      const key = await engine.importAesKey(raw);
      raw.fill(0); // the engine holds its own copy; leave none lying around
      return { kid, key };
    }),
  );
  const byKid = new Map<number, Key>();
  derived.forEach(({ kid, key }, index) => {
    // Two different secrets with one key id: a 1 in 4 billion chance, but refuse rather than guess.
    if (byKid.has(kid)) {
      throw new RangeError(
        `${api}: keys[${index}] has the same key id as an earlier key; generate a new secret`,
      );
    }
    byKid.set(kid, key);
  });
  const first = derived[0]!;
  return { sealKid: first.kid, sealKey: first.key, byKid };
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
