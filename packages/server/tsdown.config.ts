import { defineConfig } from 'tsdown';

import { libraryConfig } from '../../tsdown.base.ts';

/**
 * The modules loaded only when the handshake era, stdio, middleware or telemetry is used: each
 * of these stays a chunk of its own behind a dynamic import, so a modern-era HTTP server without
 * middleware never reads them (nor the SDK, `@parley/middleware` and `@opentelemetry/api` they
 * import). Telemetry's loader (`telemetry/telemetry.ts`) stays in the server chunk.
 */
const LOADED_ON_DEMAND =
  /\/src\/(handshake\/(sessionServer|sdkInternals)|utils\/sdkModule|round\/middlewareModule|stdio\/|telemetry\/(apiTelemetry|requestTrace|traceContext|instruments|attributes)\.ts)/;

/**
 * Everything else the server runs goes into one chunk. Left to itself the bundler splits the code
 * shared with the on-demand chunks into several more (four files on the way to the first modern
 * response instead of one), and Node's ESM loader resolves, reads and links each file on its own:
 * about 3 ms of cold start. The entry keeps only the public exports. Declaration modules
 * (`.d.ts`, built in the same graph) are left to the declaration bundle.
 */
function inServerChunk(id: string): boolean {
  return (
    id.includes('/packages/server/src/') &&
    id.endsWith('.ts') &&
    !/\.d\.[cm]?ts$/.test(id) &&
    !/\/src\/index\.ts$/.test(id) &&
    !LOADED_ON_DEMAND.test(id)
  );
}

export default defineConfig({
  ...libraryConfig(),
  // Their code goes into that chunk too: two packages fewer to resolve and read at start-up.
  // They stay dependencies, for the declarations, which import them. `@parley/core` stays
  // external: its classes and errors are what an app's own copy exchanges with the server.
  // state-sealing's internal entry is bundled with its main one: it answers only for sealers
  // made by the same copy of the package.
  noExternal: [/^@parley\/(schema|state-sealing(\/internal)?)$/],
  outputOptions: {
    advancedChunks: { groups: [{ name: 'server', test: inServerChunk }] },
  },
});
