/**
 * The scripted walk-through of the demo apps: which calls to make, how a "person" answers each
 * question, and what each call must return. `pnpm demo` prints it as a transcript; the apps'
 * end-to-end tests run the same script over HTTP and stdio, in both eras.
 */
import { basename } from 'node:path';

import type { Client, ElicitationHandler, SamplingHandler } from '@parley/client';

/** How the scripted person answers: the first rule whose pattern matches the question wins. */
export type AnswerRule = [pattern: RegExp, answer: unknown];

export interface Step {
  /** What the transcript calls this step. */
  label: string;
  run: (client: Client) => Promise<string>;
  /** The result must match this. */
  expect: RegExp;
  /** The same result in both eras (the dual-era app's promise). */
  sameInBothEras?: boolean;
}

export interface AppScript {
  app: 'booking' | 'reporting' | 'dual-era';
  answers: AnswerRule[];
  steps: Step[];
}

const text = (result: { content: { type: string; text?: string }[] }): string =>
  result.content
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n');

const call =
  (name: string, args: Record<string, unknown> = {}) =>
  async (client: Client) =>
    text(await client.callTool(name, args));

export const scripts: AppScript[] = [
  {
    app: 'booking',
    answers: [
      [/^Where would you like to fly\?$/, { destination: 'Lisbon' }],
      [/^When would you like to fly to Lisbon\?$/, { date: '2026-09-01' }],
      [
        /^Book a flight to Lisbon on 2026-09-01\? Who is travelling\?$/,
        { passenger: 'Ada Lovelace', confirm: true },
      ],
      [/^What's the meeting title\?$/, 'Design review'],
      [/^Duration in minutes\?$/, 45],
      [/^Is this urgent\?$/, 'no'],
      [/^What priority level\?$/, 'high'],
      [/^Choose tags$/, ['bug', 'documentation']],
      [/^Please provide task details$/, { title: 'Write the docs' }],
      [/^Buy 1x Baguette\?$/, true],
      [/^Cancel booking BK-\d{4}\?$/, true],
    ],
    steps: [
      {
        label: 'book_flight',
        run: call('book_flight'),
        expect: /^Booked BK-\d{4}: Ada Lovelace to Lisbon on 2026-09-01$/,
      },
      {
        label: 'list_bookings',
        run: call('list_bookings'),
        expect: /BK-\d{4}: Ada Lovelace to Lisbon on 2026-09-01/,
      },
      {
        label: 'plan_meeting',
        run: call('plan_meeting'),
        expect: /^Meeting 'Design review' for 45 minutes \(Urgent: false\)$/,
      },
      { label: 'set_priority', run: call('set_priority'), expect: /^Priority set to: high$/ },
      {
        label: 'select_tags',
        run: call('select_tags'),
        expect: /^Selected tags: bug, documentation$/,
      },
      {
        label: 'create_task',
        run: call('create_task'),
        expect: /^Created task: Write the docs \(Priority: medium\)$/,
      },
      { label: 'confirm_purchase', run: call('confirm_purchase'), expect: /^Purchased$/ },
      {
        label: 'cancel_booking',
        run: async (client) => {
          const listed = text(await client.callTool('list_bookings', {}));
          const id = /BK-\d{4}/.exec(listed)?.[0] ?? 'BK-0000';
          return text(await client.callTool('cancel_booking', { id }));
        },
        expect: /^Cancelled BK-\d{4}\.$/,
      },
    ],
  },
  {
    app: 'reporting',
    answers: [
      [/^Which quarter should the report cover\?$/, 'Q3'],
      [/^Which currency for the Q4 revenue\?$/, 'USD'],
      [/^Which currency for the annual report\?$/, 'GBP'],
      [/^Include the quarterly breakdown\?$/, true],
    ],
    steps: [
      {
        label: 'prompt summarize',
        run: async (client) => {
          const prompt = await client.getPrompt('summarize');
          return prompt.messages
            .map((message) =>
              message.content.type === 'text' ? message.content.text : `[${message.content.type}]`,
            )
            .join('\n');
        },
        expect: /^Summarize the Q3 results for the leadership team\.\n\[resource\]$/,
      },
      {
        label: 'read report://summary',
        run: async (client) => {
          const read = await client.readResource('report://summary');
          return read.contents.map((item) => ('text' in item ? item.text : '[blob]')).join('\n');
        },
        expect:
          /^Revenue report for Q3\nEMEA: 470k EUR\nAmericas: 560k EUR\nAPAC: 301k EUR\nTotal: 1331k EUR$/,
      },
      {
        label: 'read report://Q4/revenue',
        run: async (client) => {
          const read = await client.readResource('report://Q4/revenue');
          return read.contents.map((item) => ('text' in item ? item.text : '[blob]')).join('\n');
        },
        expect:
          /^Revenue for Q4\nEMEA: 572k USD\nAmericas: 659k USD\nAPAC: 372k USD\nTotal: 1603k USD$/,
      },
      {
        label: 'summarize_workspace',
        run: call('summarize_workspace'),
        expect:
          /^Workspace: .+\. Model \(demo-model\): Revenue rose every quarter, led by the Americas\.$/,
      },
      {
        label: 'annual_report (a task that asks mid-way)',
        run: call('annual_report'),
        expect:
          /^Annual report 2026: \d+k GBP\nQ1: \d+k GBP\nQ2: \d+k GBP\nQ3: \d+k GBP\nQ4: \d+k GBP$/,
      },
    ],
  },
  {
    app: 'dual-era',
    answers: [
      [/^How many people\?$/, 4],
      [/^Which time\?$/, '19:30'],
      [/^Approve 42\.50 EUR for 'train tickets'\?$/, true],
      [/^What's your name\?$/, 'Grace'],
    ],
    steps: [
      {
        label: 'book_table',
        run: call('book_table'),
        expect: /^Table for 4 at 19:30 \(reference T-4-1930\)$/,
        sameInBothEras: true,
      },
      {
        label: 'approve_expense',
        run: call('approve_expense', { amount: 42.5, purpose: 'train tickets' }),
        expect: /^Expense of 42\.50 EUR for 'train tickets' approved\.$/,
        sameInBothEras: true,
      },
      {
        label: 'greet',
        run: call('greet'),
        expect:
          /^Hello, Grace! \(answered over (the modern protocol|a handshake-era connection)\)$/,
      },
    ],
  },
];

/** The scripted person: answers a question by the first matching rule; declines anything else. */
export function scriptedElicitation(
  answers: AnswerRule[],
  onAnswer?: (message: string, answer: unknown, round: number) => void,
): ElicitationHandler {
  return (message, responseType, _params, ctx) => {
    const rule = answers.find(([pattern]) => pattern.test(message));
    if (rule === undefined) {
      onAnswer?.(message, 'declined (no scripted answer)', ctx.round);
      return { action: 'decline' };
    }
    onAnswer?.(message, rule[1], ctx.round);
    // A bare value answers a single-field ("value") form; an object fills the form's fields.
    return responseType(rule[1] as Parameters<typeof responseType>[0]);
  };
}

/** The scripted model: a fixed, plausible one-line summary. */
export const scriptedSampling: SamplingHandler = () => ({
  role: 'assistant',
  model: 'demo-model',
  content: { type: 'text', text: 'Revenue rose every quarter, led by the Americas.' },
});

/** The scripted client's roots: the current directory. */
export const scriptedRoots = [{ uri: `file://${process.cwd()}`, name: basename(process.cwd()) }];
