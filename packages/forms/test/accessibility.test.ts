/**
 * axe-core in a real Chromium: no serious or critical violation for a form with every field
 * kind, the same form with every error showing, a scalar question, and the URL views.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';

import { everyKind, scalar, urlRequest } from './fixtures.ts';
import { AXE_PATH, render, useHarness } from './harness/harness.ts';

const harness = useHarness();

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown; failureSummary?: string }[];
}

/** axe's serious and critical violations inside the element (its shadow root included). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Element, options: object) => Promise<{ violations: Violation[] }> };
      }
    ).axe;
    const element = document.querySelector('parley-elicitation')!;
    const results = await axe.run(element, { resultTypes: ['violations'] });
    return results.violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
    );
}

test('a form with every field kind', async () => {
  const page = await harness.newPage();
  await render(page, everyKind);
  expect(await seriousViolations(page)).toEqual([]);
});

test('the same form with every error showing', async () => {
  const page = await harness.newPage();
  await render(page, everyKind);
  await page.getByLabel('Guests').fill('99');
  await page.getByRole('button', { name: 'Accept' }).click();
  await page.waitForFunction(
    () =>
      document
        .querySelector('parley-elicitation')
        ?.shadowRoot?.querySelectorAll('[aria-invalid="true"]').length === 6,
  );
  expect(await seriousViolations(page)).toEqual([]);
});

test('a scalar question, labelled by the question itself', async () => {
  const page = await harness.newPage();
  await render(page, scalar);
  await page.getByRole('button', { name: 'Accept' }).click();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the URL consent view, and a refused URL', async () => {
  const page = await harness.newPage();
  await render(page, urlRequest('https://auth.example.com/connect'));
  expect(await seriousViolations(page)).toEqual([]);
  const refused = await harness.newPage();
  await render(refused, urlRequest('javascript:alert(1)'));
  expect(await seriousViolations(refused)).toEqual([]);
});

test('focus is visible: a focused control has an outline', async () => {
  const page = await harness.newPage();
  await render(page, everyKind);
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => {
    const focused = document.querySelector('parley-elicitation')!.shadowRoot!.activeElement!;
    const style = getComputedStyle(focused);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  expect(outline.style).toBe('solid');
  expect(outline.width).toBeGreaterThanOrEqual(2);
});
