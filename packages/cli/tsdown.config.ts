import { defineConfig } from 'tsdown';

import { libraryConfig } from '../../tsdown.base.ts';

// The library entry, and the `parley` command (dist/main.mjs, loaded by the bin shim in bin/).
// The command uses Node built-ins; the shared config builds for the neutral platform, so they are
// marked external rather than left to a warning.
export default defineConfig({
  ...libraryConfig(['src/index.ts', 'src/main.ts']),
  external: [/^node:/],
});
