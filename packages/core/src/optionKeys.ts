/**
 * Options objects are checked for keys they cannot have. JavaScript ignores an unknown key
 * without a word, so a misspelt option, or one that was renamed or removed, would silently
 * leave its feature off: `requestStateSecurity: { replayStore }` (now `singleUse`) would leave
 * single use of `requestState` off and replays accepted. Every public options object names the
 * keys it takes, and a key outside them is a `TypeError` that says which, and what to use.
 */

/** The keys an options object may have, and what became of keys it had once. */
export interface OptionKeys {
  /** Every key the object takes. */
  readonly known: readonly string[];
  /** Keys that were renamed or removed: what to say instead ("use `singleUse`: …"). */
  readonly retired?: Readonly<Record<string, string>>;
}

/**
 * Throws a `TypeError` starting with `api` when `options` (an object; other values are left to
 * the caller's own checks) has a key that is not in `keys.known`. `path` names the object in the
 * message (`'options'`, `'options.http'`, …). The message names the key, and for a retired key
 * what to use instead, for a near miss the key meant, and else the keys there are.
 *
 * Every key that would be data is looked at, not only what `Object.keys` lists, since a key
 * left out of the check is a key silently ignored:
 * - a symbol key (`{ [Symbol('x')]: 1 }`) is refused: options are named by strings;
 * - a key inherited from the object's prototype (`Object.create({ mimetype: 'text/plain' })`)
 *   is refused too, a known one included: code that reads `options.mimeType` sees it, code that
 *   spreads `{ ...options }` does not, so it would be honoured by one path and dropped by
 *   another. The message says to give options as the object's own keys. Only enumerable keys
 *   count (a class's methods, and brands libraries attach as non-enumerable properties, are not
 *   options), and `Object.prototype` itself is not looked at: what is set there is set on every
 *   object, and is no option of this one.
 */
export function checkOptionKeys(
  api: string,
  path: string,
  options: unknown,
  keys: OptionKeys,
): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return;
  for (const key of Object.keys(options)) {
    if (keys.known.includes(key)) continue;
    throw new TypeError(`${api}: ${path}.${key} is not an option; ${adviceFor(key, keys)}.`);
  }
  refuseSymbolKeys(api, path, options, keys);
  for (let proto = Object.getPrototypeOf(options) as object | null; ;) {
    if (proto === null || proto === Object.prototype) return;
    refuseInheritedKeys(api, path, options, proto, keys);
    proto = Object.getPrototypeOf(proto) as object | null;
  }
}

function refuseSymbolKeys(api: string, path: string, owner: object, keys: OptionKeys): void {
  for (const symbol of Object.getOwnPropertySymbols(owner)) {
    if (!Object.prototype.propertyIsEnumerable.call(owner, symbol)) continue;
    throw new TypeError(
      `${api}: ${path}[${String(symbol)}] is not an option; options are named by strings ` +
        `(${listOf(keys)}).`,
    );
  }
}

/** Refuse the enumerable keys `proto` lends `options` (symbols too), but those it shadows. */
function refuseInheritedKeys(
  api: string,
  path: string,
  options: object,
  proto: object,
  keys: OptionKeys,
): void {
  for (const key of Object.keys(proto)) {
    // Shadowed by the object's own key: never read, never spread.
    if (Object.hasOwn(options, key)) continue;
    if (keys.known.includes(key)) {
      throw new TypeError(
        `${api}: ${path}.${key} is inherited from the object's prototype; give options as ` +
          "the object's own keys (e.g. { ...defaults, ...options }), as an inherited key is " +
          'read by some code and dropped by a spread.',
      );
    }
    throw new TypeError(
      `${api}: ${path}.${key} is not an option (and is inherited from the object's ` +
        `prototype); ${adviceFor(key, keys)}.`,
    );
  }
  refuseSymbolKeys(api, path, proto, keys);
}

function listOf(keys: OptionKeys): string {
  return keys.known.length === 0 ? 'it takes none' : `the options are ${keys.known.join(', ')}`;
}

function adviceFor(key: string, keys: OptionKeys): string {
  const retired = keys.retired !== undefined && Object.hasOwn(keys.retired, key);
  if (retired) return (keys.retired as Record<string, string>)[key] as string;
  const near = nearest(key, keys.known);
  const list = listOf(keys);
  return near === undefined ? list : `did you mean ${near}? (${list})`;
}

/** The known key within two edits of `key` (case aside), if exactly one is nearest. */
function nearest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  let tie = false;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance) tie = true;
  }
  return tie ? undefined : best;
}

/** Levenshtein distance, with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (rows[i - 1] as number[])[j]! + 1,
        row[j - 1]! + 1,
        (rows[i - 1] as number[])[j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (rows[i - 2] as number[])[j - 2]! + 1);
      }
      row[j] = value;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * What `optionKeys<T>()` needs of a key list: no key of `T` left out. A list that misses keys is
 * given a `missing` member naming them, so the compiler's error says which.
 */
export type AllKeysOf<T, TList extends readonly string[]> = [
  Exclude<keyof T, TList[number]>,
] extends [never]
  ? TList
  : TList & { missing: Exclude<keyof T, TList[number]> };

/**
 * The keys of options type `T`, checked at compile time to be exactly its keys: a key listed
 * that `T` lacks, or a key of `T` not listed, is a type error, so the runtime check cannot drift
 * from the options it guards. Curried, so `T` is given and the list inferred:
 * `optionKeys<HttpOptions>()(['sessions', …], { oldName: 'use newName: …' })`.
 */
export function optionKeys<T>(): <const TList extends readonly (keyof T & string)[]>(
  known: AllKeysOf<T, TList>,
  retired?: Readonly<Record<string, string>>,
) => OptionKeys {
  return (known, retired) => (retired === undefined ? { known } : { known, retired });
}
