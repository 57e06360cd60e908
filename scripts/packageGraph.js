// @ts-check
/**
 * The dependency directions of CONTRIBUTING.md ("Architecture rules"), as data. ESLint enforces
 * them and the repository tests check that every package.json agrees with them. A package may import only the
 * `@parley/*` packages listed for it, and only the MCP SDK packages listed under `external`;
 * a package marked `noIo` keeps `node:*` out of its source, and one marked `noSchemaLibrary`
 * imports no schema library (it reads them through Standard Schema; they stay the author's
 * optional peers). `internalEntries` names the subpath entries of other packages a package
 * may import (`@parley/state-sealing/internal` and `@parley/forms/mcp-app`, for @parley/server
 * only); every other subpath of a `@parley/*` package stays out of reach.
 *
 * @type {Record<string, { parley: string[]; external: string[]; internalEntries?: string[]; noIo?: boolean; noSchemaLibrary?: boolean }>}
 */
export const packageGraph = {
  core: { parley: [], external: [], noIo: true },
  'state-sealing': { parley: [], external: [] },
  schema: { parley: ['core'], external: [], noSchemaLibrary: true },
  middleware: { parley: ['core'], external: [] },
  client: { parley: ['core', 'schema'], external: ['@modelcontextprotocol/client'] },
  // `parley proxy` loads @parley/proxy on demand.
  cli: { parley: ['client', 'core', 'schema', 'proxy'], external: [] },
  server: {
    parley: ['core', 'schema', 'state-sealing', 'middleware', 'forms'],
    external: ['@modelcontextprotocol/server', '@modelcontextprotocol/ext-apps'],
    // The App it serves on the App route: one HTML string, no DOM.
    internalEntries: ['@parley/state-sealing/internal', '@parley/forms/mcp-app'],
  },
  testing: { parley: ['core', 'client', 'server'], external: [] },
  // The downstream side is a ParleyServer, the upstream side a Parley Client.
  proxy: {
    parley: ['core', 'client', 'server'],
    external: ['@modelcontextprotocol/client'],
  },
  redis: {
    parley: ['core', 'server'],
    external: ['@modelcontextprotocol/server'],
  },
  // ext-apps' App, bundled into the MCP App (src/mcpApp), never into the library's entries.
  forms: { parley: ['core', 'schema'], external: ['@modelcontextprotocol/ext-apps'] },
};

/** The schema libraries a `noSchemaLibrary` package may not import. */
export const schemaLibraries = [
  'zod',
  'valibot',
  'arktype',
  '@valibot/*',
  '@ark/*',
  '@standard-schema/*',
];
