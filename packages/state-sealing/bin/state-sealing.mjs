#!/usr/bin/env node
// The `state-sealing` bin. A committed file rather than a path into dist/, so a package manager
// can link it before anything is built; it runs the built command.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.mjs', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(
    "state-sealing: this copy of @parley/state-sealing is not built (no dist/cli.mjs). Run 'pnpm build'.\n",
  );
  process.exit(1);
}
await import(built.href);
