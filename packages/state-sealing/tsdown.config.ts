import { defineConfig } from 'tsdown';

import { libraryConfig } from '../../tsdown.base.ts';

// The library entry, and the `keygen` command behind `npx @parley/state-sealing`.
export default defineConfig(libraryConfig(['src/index.ts', 'src/cli.ts']));
