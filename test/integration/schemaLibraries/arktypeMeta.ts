/**
 * ArkType's way to add a metadata key: declare it on `ArkEnv`. `optionTitles` then type-checks
 * in `.configure({ optionTitles })`, and ArkType carries it into its JSON Schema.
 */
declare global {
  interface ArkEnv {
    meta(): { optionTitles?: Record<string, string> };
  }
}

export {};
