/** `<Elicitation>` from @parley/forms/react, rendered by React 19 in a real Chromium. */
import { expect, test } from 'vitest';

import { everyKind, scalar } from './fixtures.ts';
import { problemsOf, useHarness } from './harness/harness.ts';

const harness = useHarness();

test('renders the element with its params and reports the answer to onAnswer', async () => {
  const page = await harness.newPage();
  await page.evaluate((params) => window.forms.renderReact(params), scalar);
  const input = page.getByRole('spinbutton', { name: 'How many tickets?' });
  await input.fill('3');
  await input.press('Enter');
  await page.waitForFunction(() => window.forms.reactAnswers().length === 1);
  expect(await page.evaluate(() => window.forms.reactAnswers())).toStrictEqual([
    { action: 'accept', content: { value: 3 } },
  ]);
  expect(await page.locator('parley-elicitation').getAttribute('class')).toBe('from-react');

  // New params from React ask again.
  await page.evaluate((params) => window.forms.renderReact(params), everyKind);
  await page.getByRole('button', { name: 'Decline' }).click();
  await page.waitForFunction(() => window.forms.reactAnswers().length === 2);
  expect((await page.evaluate(() => window.forms.reactAnswers()))[1]).toStrictEqual({
    action: 'decline',
  });
  expect(problemsOf(page)).toEqual([]);
});
