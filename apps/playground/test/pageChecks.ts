import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { repoRoot } from '../../../scripts/apps.mjs';

/** What the playground's browser tests check on a page besides its behaviour. */

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The serious and critical accessibility problems axe finds on the page as it is now. */
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
 * Puts a screenshot of the docs in place as docs/public/playground-<view>.png: only when asked
 * for (`UPDATE_SCREENSHOTS=1`) or missing, so that running the tests leaves the working tree as
 * it was. Checked first: a PNG, as wide as the page's window when `width` is given (a screenshot
 * of one element is as wide as the element).
 */
export function saveScreenshot(view: string, png: Buffer, width?: number): void {
  const wide = width === undefined || png.readUInt32BE(16) === width;
  if (png.subarray(1, 4).toString('latin1') !== 'PNG' || !wide) {
    throw new Error(
      `the screenshot of ${view} is not a PNG${width ? ` ${width} pixels wide` : ''}`,
    );
  }
  const path = join(repoRoot, `docs/public/playground-${view}.png`);
  if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(path)) {
    const partial = `${path}.partial`;
    writeFileSync(partial, png);
    renameSync(partial, path);
  }
}
