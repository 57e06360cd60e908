/**
 * Refuse a key `options` cannot have, naming it: JavaScript ignores an unknown key, so a
 * misspelt one (`ttl` for `ttlSeconds`, say) would silently leave its default in force. (This
 * package depends on nothing; `@parley/core`'s `checkOptionKeys` does the same for the rest.)
 */
export function checkKnownKeys(api: string, options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(
        `${api}: options.${key} is not an option; the options are ${known.join(', ')}.`,
      );
    }
  }
}
