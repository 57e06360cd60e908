#!/usr/bin/env node
// The `parley` bin. A committed file rather than a path into dist/, so a package manager can link
// it before anything is built; it runs the built command.
import { existsSync } from 'node:fs';

const built = new URL('../dist/main.mjs', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(
    'parley: this copy of @parley/cli is not built (no dist/main.mjs). ' +
      "Run 'pnpm build', or 'pnpm parley …' in the Parley repository to run it from source.\n",
  );
  process.exit(1);
}
await import(built.href);
