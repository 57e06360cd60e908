/**
 * A short digest of a JSON value, to tell whether an ask changed between rounds. Both sides of
 * the comparison are the server's own (one sealed in authenticated state, one built by the
 * handler now), so no adversary chooses the inputs: a fast 64-bit FNV-1a over canonical JSON is
 * enough, and costs microseconds where SHA-256 would need a second engine or an await.
 */

/**
 * JSON with object keys sorted at every depth, so equal values give equal text. (Plain loops
 * and one string: this runs on every ask of every round.) `known` holds the canonical text of
 * objects already written (immutable ones, like the schemas the ask builders share), used as is.
 */
export function canonicalJson(value: unknown, known?: WeakMap<object, string>): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const written = known?.get(value);
  if (written !== undefined) return written;
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ',';
      text += canonicalJson(value[index], known);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units, the order canonical JSON wants.
  const keys = Object.keys(record).sort();
  let text = '{';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(key)}:${canonicalJson(item, known)}`;
  }
  return `${text}}`;
}

const FNV_OFFSET_HIGH = 0xcbf29ce4;
const FNV_OFFSET_LOW = 0x84222325;

/** FNV-1a, 64 bits (as two 32-bit halves), over the UTF-16 code units of `text`; 16 hex digits. */
export function digestText(text: string): string {
  let high = FNV_OFFSET_HIGH;
  let low = FNV_OFFSET_LOW;
  for (let index = 0; index < text.length; index++) {
    low = (low ^ text.charCodeAt(index)) >>> 0;
    // Multiply by the 64-bit FNV prime 0x100000001b3 = 2^40 + 0x1b3, in 16-bit limbs.
    const lowProduct = low * 0x1b3;
    const carry = Math.floor(lowProduct / 0x100000000);
    const nextHigh = (high * 0x1b3 + carry + ((low << 8) >>> 0)) >>> 0;
    low = lowProduct >>> 0;
    high = nextHigh;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

/** The digest of a JSON value (`known` as for {@link canonicalJson}). */
export function digestOf(value: unknown, known?: WeakMap<object, string>): string {
  return digestText(canonicalJson(value, known));
}
