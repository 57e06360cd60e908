/**
 * Decline, cancel, Escape, the AbortSignal, re-asks and keyboard-only use, in a real Chromium.
 */
import { reaskMessage } from '@parley/schema';
import { describe, expect, test } from 'vitest';

import { everyKind, scalar } from './fixtures.ts';
import {
  bundle,
  describedText,
  focusedId,
  problemsOf,
  render,
  result,
  settled,
  useHarness,
  summaryText,
} from './harness/harness.ts';

const harness = useHarness();

describe('decline and cancel always work', () => {
  test('Decline, even with every required field empty', async () => {
    const page = await harness.newPage();
    await render(page, everyKind);
    await page.getByRole('button', { name: 'Decline' }).click();
    expect(await result(page)).toStrictEqual({ action: 'decline' });
    expect(await page.evaluate(() => window.forms.rootIsEmpty())).toBe(true);
  });

  test('Cancel, even with invalid values', async () => {
    const page = await harness.newPage();
    await render(page, everyKind);
    await page.getByLabel('Guests').fill('99');
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await result(page)).toStrictEqual({ action: 'cancel' });
  });

  test('Escape cancels, from a field', async () => {
    const page = await harness.newPage();
    await render(page, everyKind);
    await page.getByLabel('Email').fill('ada@');
    await page.getByLabel('Email').press('Escape');
    expect(await result(page)).toStrictEqual({ action: 'cancel' });
  });

  test('aborting the signal takes the form down and resolves cancel', async () => {
    const page = await harness.newPage();
    await render(page, everyKind);
    expect(await settled(page)).toBe(false);
    await page.evaluate(() => window.forms.abort());
    expect(await result(page)).toStrictEqual({ action: 'cancel' });
    expect(await page.evaluate(() => window.forms.rootIsEmpty())).toBe(true);
  });

  test('a host that empties the container has cancelled the question', async () => {
    const page = await harness.newPage();
    await render(page, everyKind);
    await page.evaluate(() => window.forms.clearRoot());
    expect(await result(page)).toStrictEqual({ action: 'cancel' });
  });

  test('a second copy of the package on the page keeps the first definition', async () => {
    const page = await harness.newPage();
    await page.evaluate(() => {
      (window as { first?: unknown }).first = customElements.get('parley-elicitation');
    });
    // A redefinition would throw ("already been used with this registry"): a page error.
    await page.addScriptTag({ content: await bundle('../../src/index.ts', 'iife') });
    expect(
      await page.evaluate(
        () => customElements.get('parley-elicitation') === (window as { first?: unknown }).first,
      ),
    ).toBe(true);
    await render(page, scalar);
    await page.getByRole('button', { name: 'Decline' }).click();
    expect(await result(page)).toStrictEqual({ action: 'decline' });
    expect(problemsOf(page)).toEqual([]);
  });

  test('an unknown option is a TypeError naming it', async () => {
    const page = await harness.newPage();
    expect(
      await page.evaluate((params) => window.forms.renderError(params, { signl: 1 }), scalar),
    ).toBe(
      'TypeError: renderElicitation: options.signl is not an option; did you mean signal? (the options are signal).',
    );
  });

  test('a schema no form can show says so, and still declines', async () => {
    const page = await harness.newPage();
    await render(page, {
      message: 'Nested?',
      requestedSchema: {
        type: 'object',
        properties: { address: { type: 'object' } as never },
      },
    });
    expect(await summaryText(page)).toMatch(/^This request cannot be answered here: /);
    expect(await page.getByRole('button', { name: 'Accept' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Decline' }).click();
    expect(await result(page)).toStrictEqual({ action: 'decline' });
  });
});

describe('a server’s re-ask', () => {
  test('shows the question as first asked and the reason on the field it names', async () => {
    const page = await harness.newPage();
    await render(page, {
      ...everyKind,
      message: reaskMessage('Book a table', 'Guests: must be at most 8, got 9'),
    });
    expect(await page.locator('#parley-message').textContent()).toBe('Book a table');
    const guests = page.getByLabel('Guests');
    expect(await guests.getAttribute('aria-invalid')).toBe('true');
    expect(await describedText(guests)).toContain('must be at most 8, got 9');
    expect(await summaryText(page)).toContain('Guests must be at most 8, got 9.');
    await guests.fill('4');
    expect(await guests.getAttribute('aria-invalid')).toBeNull();
  });

  test('the wrapped field of a scalar question takes the reason, labelled by the question', async () => {
    const page = await harness.newPage();
    await render(page, {
      ...scalar,
      message: reaskMessage(scalar.message, 'Must be at least 1, got 0'),
    });
    const tickets = page.getByRole('spinbutton', { name: 'How many tickets?' });
    expect(await tickets.getAttribute('aria-invalid')).toBe('true');
    expect(await describedText(tickets)).toContain('must be at least 1, got 0');
    await tickets.fill('2');
    await tickets.press('Enter');
    expect(await result(page)).toStrictEqual({ action: 'accept', content: { value: 2 } });
  });

  test('a reason that names no field is shown above the form', async () => {
    const page = await harness.newPage();
    await render(page, {
      ...everyKind,
      message: reaskMessage('Book a table', 'The kitchen is closed that day'),
    });
    expect(await summaryText(page)).toBe('The kitchen is closed that day');
    expect(await page.locator('[aria-invalid="true"]').count()).toBe(0);
  });
});

test('keyboard only: Tab through, type, Space and arrows to choose, Enter to send', async () => {
  const page = await harness.newPage();
  await render(page, {
    message: 'Quick booking',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name' },
        terrace: { type: 'boolean', title: 'Terrace' },
        seating: { type: 'string', title: 'Seating', enum: ['inside', 'outside'] },
        diet: { type: 'array', title: 'Diet', items: { type: 'string', enum: ['vegan', 'nuts'] } },
      },
      required: ['name', 'seating'],
    },
  });
  await page.keyboard.press('Tab');
  expect(await focusedId(page)).toBe('field-0');
  await page.keyboard.type('Ada');
  await page.keyboard.press('Tab'); // terrace: on "No answer", chosen until the person chooses
  await page.keyboard.press('ArrowDown'); // → Yes (arrows wrap round)
  await page.keyboard.press('Tab'); // the seating radio group
  await page.keyboard.press('ArrowDown'); // → outside (arrows move and check)
  await page.keyboard.press('Tab'); // diet: vegan
  await page.keyboard.press('Tab'); // diet: nuts
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  expect(
    await page.evaluate(() =>
      document.querySelector('parley-elicitation')?.shadowRoot?.activeElement?.textContent?.trim(),
    ),
  ).toBe('Accept');
  await page.keyboard.press('Enter');
  expect(await result(page)).toStrictEqual({
    action: 'accept',
    content: { name: 'Ada', terrace: true, seating: 'outside', diet: ['nuts'] },
  });
  expect(problemsOf(page)).toEqual([]);
});
