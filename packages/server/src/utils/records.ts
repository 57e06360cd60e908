/**
 * Whether a record has no keys of its own or inherited (the envelope's records are plain
 * objects). A `for..in` that stops at the first key: `Object.keys(record).length` builds an array
 * on every round only to count it.
 */
export function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}
