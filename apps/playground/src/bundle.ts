import { fileURLToPath } from 'node:url';

import { build, type Plugin } from 'esbuild';

/**
 * The page's script, bundled once at startup from `src/page/` with the workspace packages
 * resolved to their source (`@parley/source`), so the playground needs no build step.
 */

export const pageDir = fileURLToPath(new URL('./page/', import.meta.url));

/**
 * `@parley/client` loads the SDK's stdio transport (`node:child_process`, `cross-spawn`) only
 * when a stdio target connects, which a page never does. In the bundle it is a stand-in that
 * says so, instead of Node-only code esbuild cannot bundle for a browser.
 */
const noStdioInTheBrowser: Plugin = {
  name: 'no-stdio-in-the-browser',
  setup(bundler) {
    bundler.onResolve({ filter: /^@modelcontextprotocol\/client\/stdio$/ }, (args) => ({
      path: args.path,
      namespace: 'no-stdio',
    }));
    bundler.onLoad({ filter: /.*/, namespace: 'no-stdio' }, () => ({
      contents: `export class StdioClientTransport {
  constructor() { throw new Error('stdio targets cannot be reached from a browser'); }
}`,
      loader: 'js',
    }));
  },
};

/** The bundled page script (ES module) and its source map. */
export async function bundlePage(): Promise<{ script: string; map: string }> {
  const result = await build({
    entryPoints: [`${pageDir}main.ts`],
    bundle: true,
    write: false,
    outdir: 'out',
    entryNames: 'app',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@parley/source'],
    sourcemap: 'linked',
    logLevel: 'silent',
    plugins: [noStdioInTheBrowser],
  });
  const script = result.outputFiles.find((file) => file.path.endsWith('.js'));
  const map = result.outputFiles.find((file) => file.path.endsWith('.js.map'));
  if (script === undefined || map === undefined) throw new Error('esbuild wrote no page script');
  return { script: script.text, map: map.text };
}
