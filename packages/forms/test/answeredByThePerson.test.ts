/**
 * The form never answers for the person: a required yes/no, a required choice and a required
 * number start unanswered and are refused until answered; an optional field left untouched is
 * left out of `content`; only a schema `default` preselects. In a real Chromium.
 */
import { describeFields } from '@parley/schema';
import { describe, expect, test } from 'vitest';

import { fieldDescription } from '../src/fieldHint.ts';
import type { ElicitFormParams } from '../src/index.ts';
import {
  describedText,
  focusedId,
  problemsOf,
  render,
  result,
  settled,
  summaryText,
  useHarness,
} from './harness/harness.ts';

const harness = useHarness();

/** What dual-era's approve_expense asks: a scalar boolean, titled, required, no default. */
const approve: ElicitFormParams = {
  message: "Approve 42.00 EUR for 'Team lunch'?",
  requestedSchema: {
    type: 'object',
    properties: {
      value: { type: 'boolean', title: 'Approve', description: 'Charge the team budget' },
    },
    required: ['value'],
  },
};

describe('a required yes/no question', () => {
  test('starts with nothing chosen; Accept without a choice says so in a sentence and sends nothing', async () => {
    const page = await harness.newPage();
    await render(page, approve);
    const group = page.getByRole('radiogroup', { name: /^Approve/ });
    const yes = group.getByRole('radio', { name: 'Yes', exact: true });
    const no = group.getByRole('radio', { name: 'No', exact: true });
    // Two answers, neither chosen, no "No answer" (it is required), and no checkbox at all.
    expect(await group.getByRole('radio').count()).toBe(2);
    expect(await yes.isChecked()).toBe(false);
    expect(await no.isChecked()).toBe(false);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await group.getAttribute('aria-required')).toBe('true');

    await page.getByRole('button', { name: 'Accept' }).click();
    expect(await settled(page)).toBe(false);
    expect(await summaryText(page)).toBe('One answer needs fixing: Approve is required.');
    expect(await group.getAttribute('aria-invalid')).toBe('true');
    expect(await describedText(group)).toContain('is required');
    // Focus goes to the question's first answer, so the person answers it next.
    expect(await focusedId(page)).toBe(await yes.getAttribute('id'));

    await no.check();
    await page.getByRole('button', { name: 'Accept' }).click();
    expect(await result(page)).toStrictEqual({ action: 'accept', content: { value: false } });
    expect(problemsOf(page)).toEqual([]);
  });

  test('a schema default preselects its answer, and is sent as given', async () => {
    const page = await harness.newPage();
    await render(page, {
      message: 'Book it?',
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Book it', default: true } },
      },
    });
    const group = page.getByRole('radiogroup', { name: 'Book it' });
    expect(await group.getByRole('radio', { name: 'Yes', exact: true }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Accept' }).click();
    expect(await result(page)).toStrictEqual({ action: 'accept', content: { confirm: true } });
  });
});

describe('the same rule for every kind', () => {
  const form: ElicitFormParams = {
    message: 'Plan the trip',
    requestedSchema: {
      type: 'object',
      properties: {
        seat: { type: 'string', title: 'Seat', enum: ['aisle', 'window'] },
        meal: { type: 'string', title: 'Meal', enum: ['a', 'b', 'c', 'd', 'e', 'f'] },
        bags: { type: 'integer', title: 'Bags', minimum: 0 },
        note: { type: 'string', title: 'Note' },
        lounge: { type: 'boolean', title: 'Lounge' },
        extras: { type: 'array', title: 'Extras', items: { type: 'string', enum: ['wifi'] } },
        insured: { type: 'boolean', title: 'Insured', default: false },
        class: {
          type: 'string',
          title: 'Class',
          enum: ['economy', 'business'],
          default: 'economy',
        },
      },
      required: ['seat', 'meal', 'bags'],
    },
  };

  test('required choices and numbers start empty and are refused; optional untouched fields are left out', async () => {
    const page = await harness.newPage();
    await render(page, form);
    const seat = page.getByRole('radiogroup', { name: /^Seat/ });
    expect(await seat.getByRole('radio', { checked: true }).count()).toBe(0);
    const meal = page.getByRole('combobox', { name: 'Meal' });
    expect(await meal.inputValue()).toBe('');
    expect(await page.getByRole('spinbutton', { name: 'Bags' }).inputValue()).toBe('');
    // An optional yes/no without a default: "No answer" is what is chosen.
    const lounge = page.getByRole('radiogroup', { name: 'Lounge' });
    expect(await lounge.getByRole('radio', { name: 'No answer' }).isChecked()).toBe(true);
    // Defaults preselect.
    const insured = page.getByRole('radiogroup', { name: 'Insured' });
    expect(await insured.getByRole('radio', { name: 'No', exact: true }).isChecked()).toBe(true);
    expect(
      await page
        .getByRole('radiogroup', { name: 'Class' })
        .getByRole('radio', { name: 'economy' })
        .isChecked(),
    ).toBe(true);

    await page.getByRole('button', { name: 'Accept' }).click();
    expect(await settled(page)).toBe(false);
    const summary = await summaryText(page);
    expect(summary).toContain('3 answers need fixing:');
    expect(summary).toContain('Seat is required.');
    expect(summary).toContain('Meal is required.');
    expect(summary).toContain('Bags is required.');

    await seat.getByRole('radio', { name: 'window' }).check();
    await meal.selectOption('c');
    await page.getByRole('spinbutton', { name: 'Bags' }).fill('0');
    await page.getByRole('button', { name: 'Accept' }).click();
    // Note, Lounge and Extras were not touched: left out, never "", false or [].
    expect(await result(page)).toStrictEqual({
      action: 'accept',
      content: { seat: 'window', meal: 'c', bags: 0, insured: false, class: 'economy' },
    });
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('a date picker', () => {
  const date = (description: string, format = 'date') =>
    describeFields({
      type: 'object',
      properties: { d: { type: 'string', format: format as 'date', description } },
    })[0]!;

  test('shows no note on how to type a date, which the picker writes in the person’s own format', async () => {
    expect(fieldDescription(date('Departure date (YYYY-MM-DD)'))).toBe('Departure date');
    expect(fieldDescription(date('When, as YYYY-MM-DDThh:mm:ssZ', 'date-time'))).toBe('When, as');
    expect(fieldDescription(date('Arrival (ISO 8601)', 'date-time'))).toBe('Arrival');
    expect(fieldDescription(date('YYYY-MM-DD'))).toBeUndefined();
    // Only on a picker: a text field's note stays.
    const text = describeFields({
      type: 'object',
      properties: { d: { type: 'string', description: 'Code (YYYY-MM-DD)' } },
    })[0]!;
    expect(fieldDescription(text)).toBe('Code (YYYY-MM-DD)');

    const page = await harness.newPage({ locale: 'en-US' });
    await render(page, {
      message: 'When would you like to fly to Lisbon?',
      requestedSchema: {
        type: 'object',
        properties: {
          date: {
            type: 'string',
            format: 'date',
            title: 'Date',
            description: 'Departure date (YYYY-MM-DD)',
          },
        },
        required: ['date'],
      },
    });
    const field = page.getByLabel('Date');
    expect(await describedText(field)).toBe('Departure date');
    expect(await page.getByText('YYYY').count()).toBe(0);
    await field.fill('2026-09-01');
    await page.getByRole('button', { name: 'Accept' }).click();
    expect(await result(page)).toStrictEqual({
      action: 'accept',
      content: { date: '2026-09-01' },
    });
  });
});
