import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import type { ElicitFormParams, ElicitUrlParams, InputContext } from '@parley/client';
import { createResponseType } from '@parley/schema';

import { createElicitationHandler } from '../src/elicitationPrompt.ts';
import { oneAtATime } from '../src/oneAtATime.ts';
import { DECLINED } from '../src/prompter.ts';
import { startApp, type RunningApp } from './helpers/demoApps.ts';
import { parley } from './helpers/runParley.ts';
import { scriptedPrompter } from './helpers/scriptedPrompter.ts';

/**
 * Each question says the route it took to the person, one line above it: the client's own form
 * (as written, or adapted to the host), Parley's App (`--as-app-host`: the CLI answers as the App
 * would), or the conversation (`--no-elicitation` in a terminal: the tool called again with the
 * answers as arguments). Real runs against the booking app, whose server allows the App route
 * and falls back to arguments, in both eras.
 */

const ERAS = ['modern', 'handshake'] as const;
const FORM = "  route: elicitation (the client's own form)";
const APP = '  route: App (answered here, as the App would)';
const CONVERSATION = '  route: conversation (arguments)';

let booking: RunningApp;

beforeAll(async () => {
  booking = await startApp('booking');
}, 60_000);

afterAll(async () => {
  await booking?.stop();
});

/** The lines of the questions: headings, routes, messages, prompts and refusals. */
function questionLines(screen: string[]): string[] {
  return screen.filter(
    (line) =>
      line.startsWith('question:') ||
      line.startsWith('?') ||
      line.startsWith('!') ||
      line.startsWith('error:') ||
      /^ {2}[^(]/.test(line),
  );
}

describe('the route line above each question', () => {
  for (const era of ERAS) {
    test(`${era} era: each elicitation of book_flight is the client's own form`, async () => {
      const { code, stdout, screen } = await parley(
        ['call', booking.url, 'book_flight', '--mode', era],
        ['Paris', '2026-08-01', 'Ada Lovelace', true],
      );
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Booked BK-\d+: Ada Lovelace to Paris on 2026-08-01\n$/);
      const headings = screen.flatMap((line, at) =>
        line.startsWith('question:') ? [screen[at + 1]] : [],
      );
      expect(headings).toEqual([FORM, FORM, FORM]);
    });
  }

  test('a form the server adapted names its fields; one that offers an App, and a URL, say so', async () => {
    const prompter = scriptedPrompter(['3', 'Open', true]);
    const handler = createElicitationHandler(prompter, oneAtATime());
    const ctx: InputContext = {
      era: 'handshake',
      protocolVersion: '2025-11-25',
      call: { method: 'tools/call', name: 'plan' },
      round: 1,
      key: '0',
      signal: new AbortController().signal,
    };
    const form = (name: string, meta: Record<string, unknown>): ElicitFormParams => ({
      mode: 'form',
      message: `Which ${name}?`,
      requestedSchema: {
        type: 'object',
        properties: { [name]: { type: 'string' } },
        required: [name],
      },
      _meta: meta,
    });
    const ask = (params: ElicitFormParams | ElicitUrlParams) =>
      handler(
        params.message,
        createResponseType(
          params.mode === 'url' ? { type: 'object', properties: {} } : params.requestedSchema,
        ),
        params,
        ctx,
      );
    await ask(form('count', { 'dev.parley/adapted': ['tags', 'count'] }));
    await ask(form('label', { ui: { resourceUri: 'ui://parley/ask' } }));
    await ask({ mode: 'url', message: 'Sign in', url: 'https://example.com/login' });
    expect(prompter.screen.filter((line) => line.startsWith('  route:'))).toEqual([
      '  route: elicitation, adapted for this host: tags, count',
      "  route: elicitation (the client's own form; the server offers ui://parley/ask)",
      '  route: elicitation (a URL to open)',
    ]);
  });
});

describe('--as-app-host: a host that draws MCP Apps and cannot elicit', () => {
  for (const era of ERAS) {
    test(`${era} era: book_flight is booked through the App route, three questions`, async () => {
      const { code, stdout, screen } = await parley(
        ['call', booking.url, 'book_flight', '--as-app-host', '--mode', era],
        ['Lisbon', '2026-09-01', 'Grace Hopper', true],
      );
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Booked BK-\d+: Grace Hopper to Lisbon on 2026-09-01\n$/);
      expect(questionLines(screen)).toEqual([
        'question: book_flight asks (round 1)',
        APP,
        '  Where would you like to fly?',
        '? Destination · City or airport · at least 2 characters',
        'question: book_flight asks (round 2)',
        APP,
        '  When would you like to fly to Lisbon?',
        '? Date · Departure date (YYYY-MM-DD)',
        'question: book_flight asks (round 3)',
        APP,
        '  Book a flight to Lisbon on 2026-09-01? Who is travelling?',
        '? Passenger · Full name as on the passport',
        '? Book it · Book this flight',
      ]);
      expect(screen).toContain(
        `info: Connected to ${booking.url}\n${era} era, MCP ${era === 'modern' ? '2026-07-28' : '2025-11-25'}`,
      );
    });

    test(`${era} era: answers that do not fit are refused and asked again before they are sent`, async () => {
      const { code, stdout, screen } = await parley(
        ['call', booking.url, 'book_flight', '--as-app-host', '--mode', era],
        ['P', 'Porto', '2026-02-30', '2026-10-02', 'Alan Turing', true],
      );
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Booked BK-\d+: Alan Turing to Porto on 2026-10-02\n$/);
      const lines = questionLines(screen);
      expect(lines.filter((line) => line.startsWith('!'))).toEqual([
        '! Destination must be at least 2 characters long, got 1',
        '! Date: expected a date such as 2026-08-01, got the string "2026-02-30"',
      ]);
      // Refused on the field: still one question per round, each on the App route.
      expect(lines.filter((line) => line === APP)).toHaveLength(3);
    });
  }

  test('declining the first question reaches the server as a decline', async () => {
    const { code, stdout, screen } = await parley(
      ['call', booking.url, 'book_flight', '--as-app-host'],
      [DECLINED],
    );
    expect(code).toBe(0);
    expect(stdout).toBe('Booking cancelled.\n');
    expect(screen).toContain('warn: Declined.');
  });

  test('is for parley call only', async () => {
    const { code, stderr } = await parley(['tools', booking.url, '--as-app-host']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "parley: --as-app-host is for parley call: an App is shown for a tool call, not for parley tools.\nRun 'parley --help' for usage.\n",
    );
  });
});

describe('--no-elicitation in a terminal: the conversation route', () => {
  for (const era of ERAS) {
    test(`${era} era: the questions the result lists are put to the person, and book_flight called again with the answers`, async () => {
      const { code, stdout, screen } = await parley(
        ['call', booking.url, 'book_flight', '--no-elicitation', '--mode', era],
        ['Oslo', '2026-11-03', 'Ada Lovelace', true],
      );
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Booked BK-\d+: Ada Lovelace to Oslo on 2026-11-03\n$/);
      // All three at once, as the result lists them (a question's message names what the
      // handler has not been told yet), each field described as a form would describe it.
      expect(questionLines(screen)).toEqual([
        'question: book_flight asks (round 1)',
        CONVERSATION,
        '  Where would you like to fly?',
        '? Destination · City or airport · at least 2 characters',
        'question: book_flight asks (round 1)',
        CONVERSATION,
        '  When would you like to fly to the destination?',
        '? Date · Departure date (YYYY-MM-DD)',
        'question: book_flight asks (round 1)',
        CONVERSATION,
        '  Book a flight to the destination on the date? Who is travelling?',
        '? Passenger · Full name as on the passport',
        '? Book it · Book this flight',
      ]);
    });
  }

  test('an answer the server refuses is asked again with its reason', async () => {
    // A person whose prompts do not check (as a model's arguments are not): the server does.
    const { code, stdout, screen } = await parley(
      ['call', booking.url, 'book_flight', '--no-elicitation'],
      ['R', '2026-12-04', 'Ada Lovelace', true, 'Rome'],
      { validates: false },
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Booked BK-\d+: Ada Lovelace to Rome on 2026-12-04\n$/);
    const lines = questionLines(screen);
    const again = lines.indexOf('question: book_flight asks (round 2)');
    expect(again).toBeGreaterThan(0);
    expect(lines[again + 1]).toBe(CONVERSATION);
    expect(lines[again + 2]).toContain('Your last answer could not be used.');
    expect(lines[again + 2]).toContain('Destination: must be at least 2 characters long, got 1.');
  });
});
