import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { repoRoot } from '../../../scripts/apps.mjs';

/** What the playground's browser tests share: axe, and the docs' screenshots. */

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The serious and critical accessibility problems axe finds on `page` as it is now. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: {
        run(
          context: Document,
          options: object,
        ): Promise<{
          violations: { id: string; impact: string; help: string; nodes: { target: unknown }[] }[];
        }>;
      };
    };
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
    );
}

/**
 * Save a PNG as docs/public/<name>.png when UPDATE_SCREENSHOTS=1 or when it is missing, whole
 * or not at all (written aside, then renamed). Returns the path.
 */
export function saveScreenshot(name: string, png: Buffer): string {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error(`${name} is not a PNG`);
  const path = join(repoRoot, `docs/public/${name}.png`);
  if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(path)) {
    writeFileSync(`${path}.partial`, png);
    renameSync(`${path}.partial`, path);
  }
  return path;
}
