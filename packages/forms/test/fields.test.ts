/**
 * Every field kind in a real Chromium: filled and sent (the exact result, wire types included),
 * refused with the server's own words on the field, corrected and sent.
 */
import { describeFields, fieldValueProblem } from '@parley/schema';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';

import { DISHES, everyKind } from './fixtures.ts';
import {
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

/** The server's own reason for `value` in field `name` (what its re-ask would say). */
function serverProblem(name: string, value: unknown): string {
  const field = describeFields(everyKind.requestedSchema).find((f) => f.name === name)!;
  return fieldValueProblem(field, value)!;
}

async function fillRequired(page: Page): Promise<void> {
  await page.getByLabel('Name', { exact: true }).fill('Ada');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Day').fill('2026-08-01');
  await page.getByRole('radio', { name: 'Outside' }).check();
  await page.getByRole('checkbox', { name: 'Vegan' }).check();
}

describe('filled and sent', () => {
  test('every kind, with defaults, numbers as numbers, and empty optional fields left out', async () => {
    const page = await harness.newPage({ timezoneId: 'Europe/Berlin' });
    await render(page, everyKind);
    await fillRequired(page);
    await page.getByLabel('Arrival').fill('2026-08-01T19:30');
    await page.getByLabel('Budget').fill('12.5');
    await page.getByLabel('Dish').selectOption('curry');
    await page.getByRole('checkbox', { name: 'No gluten' }).check();
    await page
      .getByRole('radiogroup', { name: 'High chair' })
      .getByRole('radio', { name: 'Yes', exact: true })
      .check();
    await page.getByRole('button', { name: 'Accept' }).click();
    const answer = await result(page);
    expect(answer).toStrictEqual({
      action: 'accept',
      content: {
        name: 'Ada',
        email: 'ada@example.com',
        day: '2026-08-01',
        // Local wall-clock time with the page's offset: RFC 3339, as matchesFormat wants it.
        arrival: '2026-08-01T19:30:00+02:00',
        guests: 2,
        budget: 12.5,
        terrace: true,
        highchair: true,
        seating: 'outside',
        dish: 'curry',
        diet: ['vegan', 'gluten'],
      },
    });
    // In schema order; `website` (optional, empty) is left out rather than sent as "".
    expect(Object.keys(answer.content!)).toEqual([
      'name',
      'email',
      'day',
      'arrival',
      'guests',
      'budget',
      'terrace',
      'highchair',
      'seating',
      'dish',
      'diet',
    ]);
    expect(await page.evaluate(() => window.forms.rootIsEmpty())).toBe(true);
    expect(problemsOf(page)).toEqual([]);
  });

  test('only what is needed: defaults sent as given, an unanswered yes/no left out', async () => {
    const page = await harness.newPage();
    await render(page, everyKind);
    await fillRequired(page);
    await page.getByLabel('Guests').fill('7');
    await page.getByLabel('Name', { exact: true }).press('Enter');
    expect(await result(page)).toStrictEqual({
      action: 'accept',
      content: {
        name: 'Ada',
        email: 'ada@example.com',
        day: '2026-08-01',
        guests: 7,
        terrace: true,
        seating: 'outside',
        diet: ['vegan'],
      },
    });
  });

  test('a date-time default is shown in local time and, untouched, sent back verbatim', async () => {
    const page = await harness.newPage({ timezoneId: 'America/New_York' });
    await render(page, {
      message: 'When?',
      requestedSchema: {
        type: 'object',
        properties: {
          at: { type: 'string', title: 'At', format: 'date-time', default: '2026-08-01T13:30:00Z' },
          then: { type: 'string', title: 'Then', format: 'date-time' },
        },
      },
    });
    expect(await page.getByLabel('At').inputValue()).toBe('2026-08-01T09:30');
    await page.getByLabel('Then').fill('2026-12-24T18:00');
    await page.getByRole('button', { name: 'Accept' }).click();
    expect(await result(page)).toStrictEqual({
      action: 'accept',
      content: { at: '2026-08-01T13:30:00Z', then: '2026-12-24T18:00:00-05:00' },
    });
  });

  test('choices show their titles and send their values; few are radios, many a select', async () => {
    const page = await harness.newPage();
    await render(page, everyKind);
    expect(await page.getByRole('radiogroup', { name: 'Seating' }).getByRole('radio').count()).toBe(
      2,
    );
    const dish = page.getByRole('combobox', { name: 'Dish' });
    expect(await dish.locator('option').allTextContents()).toEqual([
      expect.stringContaining('No answer'),
      ...DISHES.map((name) => expect.stringContaining(name.toUpperCase())),
    ]);
    expect(await page.getByRole('group', { name: /^Diet/ }).getByRole('checkbox').count()).toBe(3);
  });

  test('titles label, descriptions and limits describe, required fields are marked', async () => {
    const page = await harness.newPage();
    await render(page, everyKind);
    const name = page.getByRole('textbox', { name: 'Name', exact: true });
    expect(await describedText(name)).toBe('As on the booking | 2–20 characters');
    expect(await name.getAttribute('required')).toBe('');
    expect(
      await page.getByRole('textbox', { name: 'website' }).getAttribute('required'),
    ).toBeNull();
    expect(
      await page.getByRole('radiogroup', { name: 'Seating' }).getAttribute('aria-required'),
    ).toBe('true');
    // A group's name says it is required; the visible mark is the asterisk beside each label.
    expect(await page.getByRole('group', { name: 'Diet (required)' }).count()).toBe(1);
    expect(await page.locator('parley-elicitation >> [part~="required"]').count()).toBe(6);
    expect(await describedText(page.getByRole('spinbutton', { name: 'Guests' }))).toBe(
      'whole number, 1–8',
    );
    expect(await page.getByRole('spinbutton', { name: 'Guests' }).getAttribute('step')).toBe('1');
  });
});

test('an optional radio group can be left, or set back to, no answer', async () => {
  const page = await harness.newPage();
  await render(page, {
    message: 'Anything else?',
    requestedSchema: {
      type: 'object',
      properties: { side: { type: 'string', title: 'Side', enum: ['fries', 'salad'] } },
    },
  });
  const side = page.getByRole('radiogroup', { name: 'Side' });
  expect(await side.getByRole('radio', { name: 'No answer' }).isChecked()).toBe(true);
  await side.getByRole('radio', { name: 'fries' }).check();
  await side.getByRole('radio', { name: 'No answer' }).check();
  await page.getByRole('button', { name: 'Accept' }).click();
  expect(await result(page)).toStrictEqual({ action: 'accept', content: {} });
});

describe('refused with the server’s words, corrected and sent', () => {
  test('each field shows its own reason, tied to it; accept waits until all are fixed', async () => {
    const page = await harness.newPage();
    await render(page, everyKind);
    await page.getByLabel('Name', { exact: true }).fill('A');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('website').fill('example.com');
    await page.getByLabel('Guests').fill('2.5');
    await page.getByLabel('Budget').fill('-1');
    for (const option of ['Vegan', 'No nuts', 'No gluten']) {
      await page.getByRole('checkbox', { name: option }).check();
    }
    await page.getByRole('button', { name: 'Accept' }).click();

    const expected: [string, ReturnType<Page['getByLabel']>, string][] = [
      ['name', page.getByLabel('Name', { exact: true }), serverProblem('name', 'A')],
      ['email', page.getByLabel('Email'), serverProblem('email', 'not-an-email')],
      ['website', page.getByLabel('website'), serverProblem('website', 'example.com')],
      ['day', page.getByLabel('Day'), 'is required'],
      ['guests', page.getByLabel('Guests'), serverProblem('guests', 2.5)],
      ['budget', page.getByLabel('Budget'), serverProblem('budget', -1)],
      ['seating', page.getByRole('radiogroup', { name: 'Seating' }), 'is required'],
      [
        'diet',
        page.getByRole('group', { name: /^Diet/ }),
        serverProblem('diet', ['vegan', 'nuts', 'gluten']),
      ],
    ];
    // The server's wording, literally, for a few (fieldValueProblem is what the server runs).
    expect(expected.map(([, , reason]) => reason)).toEqual([
      'must be at least 2 characters long, got 1',
      'expected an email address such as name@example.com, got the string "not-an-email"',
      'expected an absolute URI such as https://example.com, got the string "example.com"',
      'is required',
      'expected an integer, got the number 2.5',
      'must be at least 0, got -1',
      'is required',
      'choose at most 2 options, got 3',
    ]);
    for (const [name, control, reason] of expected) {
      expect(await control.getAttribute('aria-invalid'), name).toBe('true');
      expect(await describedText(control), name).toContain(reason);
    }
    const summary = await summaryText(page);
    expect(summary).toContain('8 answers need fixing:');
    expect(summary).toContain('Name must be at least 2 characters long, got 1.');
    expect(summary).toContain('Seating is required.');
    expect(await settled(page)).toBe(false);
    expect(await focusedId(page)).toBe(
      await page.getByLabel('Name', { exact: true }).getAttribute('id'),
    );

    // A corrected value clears its error at once; the others stay until they are fixed.
    await page.getByLabel('Name', { exact: true }).fill('Ada');
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('button', { name: 'Accept' }).click();
    expect(await settled(page)).toBe(false);
    expect(await focusedId(page)).toBe(await page.getByLabel('Email').getAttribute('id'));

    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('website').fill('https://ada.example');
    await page.getByLabel('Day').fill('2026-08-01');
    await page.getByLabel('Guests').fill('3');
    await page.getByLabel('Budget').fill('0');
    await page.getByRole('radio', { name: 'Inside' }).check();
    await page.getByRole('checkbox', { name: 'No nuts' }).uncheck();
    await page.getByRole('button', { name: 'Accept' }).click();
    expect(await result(page)).toStrictEqual({
      action: 'accept',
      content: {
        name: 'Ada',
        email: 'ada@example.com',
        website: 'https://ada.example',
        day: '2026-08-01',
        guests: 3,
        budget: 0,
        terrace: true,
        seating: 'inside',
        diet: ['vegan', 'gluten'],
      },
    });
    expect(problemsOf(page)).toEqual([]);
  });

  test('bounds and lengths: too many, too long, too few', async () => {
    const page = await harness.newPage();
    await render(page, everyKind);
    await fillRequired(page);
    await page.getByLabel('Name', { exact: true }).fill('x'.repeat(21));
    await page.getByLabel('Guests').fill('9');
    await page.getByRole('checkbox', { name: 'Vegan' }).uncheck();
    await page.getByRole('button', { name: 'Accept' }).click();
    expect(await describedText(page.getByLabel('Name', { exact: true }))).toContain(
      'must be at most 20 characters long, got 21',
    );
    expect(await describedText(page.getByLabel('Guests'))).toContain('must be at most 8, got 9');
    // None chosen of a required multi-select is "left empty": the server's "is required".
    expect(await describedText(page.getByRole('group', { name: /^Diet/ }))).toContain(
      'is required',
    );
    expect(await settled(page)).toBe(false);
  });
});
