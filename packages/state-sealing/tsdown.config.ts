import { defineConfig } from 'tsdown';

import { libraryConfig } from '../../tsdown.base.ts';

// The library entry; `@parley/state-sealing/internal`, @parley/server's answers at once (not
// public, see src/internal.ts), which shares the sealer's chunk so it knows the sealers the main
// entry makes; and the `keygen` command behind `npx @parley/state-sealing`.
export default defineConfig(libraryConfig(['src/index.ts', 'src/internal.ts', 'src/cli.ts']));
