/**
 * Refuse a key `options` cannot have, naming it: JavaScript ignores an unknown key, so a
 * misspelt one (`ttl` for `ttlMs`, say) would silently leave its default in force, and so would
 * a key that was renamed. `retired` says, for each renamed or removed key, what to use instead.
 * (This package depends on nothing; `@parley/core`'s `checkOptionKeys` does the same for the
 * rest.)
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
}
