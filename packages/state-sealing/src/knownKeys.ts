/**
 * Refuse a key `options` cannot have, naming it: JavaScript ignores an unknown key, so a
 * misspelt one (`ttl` for `ttlMs`, say) would silently leave its default in force, and so would
 * a key that was renamed. `retired` says, for each renamed or removed key, what to use instead.
 * Symbol keys and keys inherited from a prototype (below `Object.prototype`) are refused too,
 * as they would be read by one path and dropped by another. (This package depends on nothing;
 * `@parley/core`'s `checkOptionKeys` does the same for the rest, with the same rules.)
 */
export function checkKnownKeys(
  api: string,
  options: object,
  known: readonly string[],
  retired: Readonly<Record<string, string>> = {},
): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const advice = Object.hasOwn(retired, key)
      ? retired[key]
      : `the options are ${known.join(', ')}`;
    throw new TypeError(`${api}: options.${key} is not an option; ${advice}.`);
  }
  for (let owner: object | null = options; owner !== null && owner !== Object.prototype;) {
    for (const symbol of Object.getOwnPropertySymbols(owner)) {
      if (!Object.prototype.propertyIsEnumerable.call(owner, symbol)) continue;
      throw new TypeError(
        `${api}: options[${String(symbol)}] is not an option; options are named by strings ` +
          `(the options are ${known.join(', ')}).`,
      );
    }
    if (owner !== options) {
      const inherited = Object.keys(owner).find((key) => !Object.hasOwn(options, key));
      if (inherited !== undefined) {
        throw new TypeError(
          `${api}: options.${inherited} is inherited from the object's prototype; give options ` +
            "as the object's own keys (e.g. { ...defaults, ...options }).",
        );
      }
    }
    owner = Object.getPrototypeOf(owner) as object | null;
  }
}
