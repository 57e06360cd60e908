import { canonicalJson, type CanonicalJsonOptions } from '@parley/core';

/**
 * A short digest of a JSON value, to tell whether an ask changed between rounds. Both sides of
 * the comparison are the server's own (one sealed in authenticated state, one built by the
 * handler now), so no adversary chooses the inputs: a fast 64-bit FNV-1a over canonical JSON is
 * enough, and costs microseconds where SHA-256 would need a second engine or an await.
 */

/**
 * FNV-1a, 64 bits, over the UTF-16 code units of `text`; 16 hex digits. The state is four 16-bit
 * limbs, so every step is small-integer arithmetic (no floating point, no division): this runs
 * over the whole text of an ask each time one is digested.
 */
export function digestText(text: string): string {
  // The 64-bit offset basis 0xcbf29ce484222325, lowest limb first.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let index = 0; index < text.length; index++) {
    h0 ^= text.charCodeAt(index);
    // Multiply by the 64-bit FNV prime 0x100000001b3 = 2^40 + 0x1b3 (2^40 shifts limb 0 into
    // limb 2 by 8 bits), carrying from limb to limb.
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
    h3 = (h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16)) & 0xffff;
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
  }
  return hex16(h3) + hex16(h2) + hex16(h1) + hex16(h0);
}

/** Every byte as 2 hex digits. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function hex16(limb: number): string {
  return HEX[limb >>> 8]! + HEX[limb & 0xff]!;
}

/** The digest of a JSON value: of its canonical JSON (`@parley/core`'s `canonicalJson`). */
export function digestOf(value: unknown, options?: CanonicalJsonOptions): string {
  return digestText(canonicalJson(value, options));
}
