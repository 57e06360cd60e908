import { defineConfig } from 'tsdown';

import { libraryConfig } from '../../tsdown.base.ts';

// The library first; then the `parley` command (the package's `bin`, dist/cli/main.mjs), which
// nothing in the library imports. Only the command uses Node built-ins; the shared config
// builds for the neutral platform, so they are marked external rather than left to a warning.
export default defineConfig({
  ...libraryConfig(['src/index.ts', 'src/cli/main.ts']),
  external: [/^node:/],
});
