// #region optionTitles
// ArkType's way to add a metadata key: declare it once, on ArkEnv.
declare global {
  interface ArkEnv {
    meta(): { optionTitles?: Record<string, string> };
  }
}
// #endregion optionTitles

export {};
