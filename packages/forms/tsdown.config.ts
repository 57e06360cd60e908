import { defineConfig } from 'tsdown';

import { libraryConfig } from '../../tsdown.base.ts';

// The element and renderElicitation, and the React wrapper as its own entry (`@parley/forms/react`)
// so a page without React never loads it. The wrapper imports the main entry by the package's own
// name, kept external, so the build has no shared chunk and dist/index is the one file that
// defines the element (package.json `sideEffects`). lit, react and @parley/* are external too.
export default defineConfig({
  ...libraryConfig(['src/index.ts', 'src/react.ts', 'src/mcp-app.ts']),
  external: ['@parley/forms'],
});
