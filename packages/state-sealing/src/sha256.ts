/**
 * SHA-256 (FIPS 180-4) in plain code, for the WebCrypto engine. `crypto.subtle.digest` is
 * asynchronous, and on some runtimes (Node among them) each call is a round trip to a thread
 * pool that costs more than hashing a request binding; this takes microseconds and no await.
 * Only public-shaped inputs are hashed with it (bindings and the audience), never keys, and the
 * algorithm has no data-dependent branches or table lookups.
 */

// prettier-ignore
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

// prettier-ignore
const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

const w = new Uint32Array(64);

/** The SHA-256 digest of `data`, 32 bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  // Message, 0x80, zeros, then the length in bits as a 64-bit big-endian integer.
  const blocks = Math.ceil((data.length + 9) / 64);
  const message = new Uint8Array(blocks * 64);
  message.set(data);
  message[data.length] = 0x80;
  writeUint32(message, message.length - 8, Math.floor(data.length / 2 ** 29));
  writeUint32(message, message.length - 4, data.length * 8);

  let h0 = INITIAL[0]!;
  let h1 = INITIAL[1]!;
  let h2 = INITIAL[2]!;
  let h3 = INITIAL[3]!;
  let h4 = INITIAL[4]!;
  let h5 = INITIAL[5]!;
  let h6 = INITIAL[6]!;
  let h7 = INITIAL[7]!;
  for (let offset = 0; offset < message.length; offset += 64) {
    for (let t = 0, i = offset; t < 16; t++, i += 4) {
      w[t] =
        (message[i]! << 24) | (message[i + 1]! << 16) | (message[i + 2]! << 8) | message[i + 3]!;
    }
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15]!;
      const b = w[t - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[t] = w[t - 16]! + s0 + w[t - 7]! + s1;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[t]! + w[t]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  const digest = new Uint8Array(32);
  writeUint32(digest, 0, h0);
  writeUint32(digest, 4, h1);
  writeUint32(digest, 8, h2);
  writeUint32(digest, 12, h3);
  writeUint32(digest, 16, h4);
  writeUint32(digest, 20, h5);
  writeUint32(digest, 24, h6);
  writeUint32(digest, 28, h7);
  return digest;
}

function writeUint32(bytes: Uint8Array, offset: number, value: number): void {
  bytes[offset] = value >>> 24;
  bytes[offset + 1] = (value >>> 16) & 255;
  bytes[offset + 2] = (value >>> 8) & 255;
  bytes[offset + 3] = value & 255;
}
