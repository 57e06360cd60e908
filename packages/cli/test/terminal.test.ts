import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

import { NODE_FROM_SOURCE, repoRoot, startApp, type RunningApp } from './helpers/demoApps.ts';
import { openTerminal, requireTmux, type TmuxTerminal } from './helpers/tmuxTerminal.ts';

/**
 * `parley` used as a person uses it: in a real pseudo-terminal (tmux), against the booking app
 * running as its own process, answered key by key, checked by what the screen shows.
 */

const CLI = `${repoRoot}packages/cli/src/main.ts`;

// clack's marks: the active prompt, and a prompt whose input is refused.
const ACTIVE = '◆';
const REFUSED = '▲';

let booking: RunningApp;
const terminals: TmuxTerminal[] = [];

beforeAll(async () => {
  requireTmux();
  booking = await startApp('booking');
}, 60_000);

afterEach(async () => {
  await Promise.all(terminals.splice(0).map((terminal) => terminal.kill()));
});

afterAll(async () => {
  await Promise.all(terminals.map((terminal) => terminal.kill()));
  await booking?.stop();
});

async function parley(...args: string[]): Promise<TmuxTerminal> {
  const terminal = await openTerminal([process.execPath, ...NODE_FROM_SOURCE, CLI, ...args], {
    cwd: repoRoot,
  });
  terminals.push(terminal);
  return terminal;
}

/** The screen from the last time `marker` was drawn: what is on it now, below that. */
function after(screen: string, marker: string): string {
  const at = screen.lastIndexOf(marker);
  return at === -1 ? '' : screen.slice(at);
}

/** Wait until `prompt` is the prompt being answered. */
function promptOpen(terminal: TmuxTerminal, prompt: string): Promise<string> {
  return terminal.waitFor(`the open prompt "${prompt}"`, (screen) =>
    screen.includes(`${ACTIVE}  ${prompt}`),
  );
}

/** Answer the Answer/Decline/Cancel choice of the question `message`. */
async function choose(terminal: TmuxTerminal, message: string, keys: string[]): Promise<void> {
  await promptOpen(terminal, message);
  await terminal.waitFor(`the choices of "${message}"`, (screen) =>
    /● Answer/.test(after(screen, message)),
  );
  await terminal.press(...keys, 'Enter');
}

async function typeInto(terminal: TmuxTerminal, field: string, text: string): Promise<void> {
  await promptOpen(terminal, field);
  await terminal.type(text);
  await terminal.press('Enter');
}

function exited(terminal: TmuxTerminal, code: number): Promise<string> {
  return terminal.waitFor(
    `parley to exit with ${code}`,
    (screen) => screen.includes(`[exit ${code}]`),
    60_000,
  );
}

describe('parley call in a terminal', () => {
  test('book_flight: three rounds typed in, the booking on the screen', async () => {
    const terminal = await parley('call', booking.url, 'book_flight');

    await choose(terminal, 'Where would you like to fly?', []);
    await typeInto(terminal, 'Destination · City or airport', 'P');
    // Too short: the reason appears under the field, which stays open for the rest.
    await terminal.waitFor(
      'the refusal of "P"',
      (screen) =>
        screen.includes(`${REFUSED}  Destination`) &&
        screen.includes('Destination must be at least 2 characters long, got 1'),
    );
    await terminal.type('aris');
    await terminal.press('Enter');

    await choose(terminal, 'When would you like to fly to Paris?', []);
    await typeInto(terminal, 'Date · Departure date (YYYY-MM-DD)', '2026-08-01');

    await choose(terminal, 'Book a flight to Paris on 2026-08-01? Who is travelling?', []);
    await typeInto(terminal, 'Passenger · Full name as on the passport', 'Ada Lovelace');
    // The confirm's default (yes) is pre-selected: Enter keeps it.
    await promptOpen(terminal, 'Book it · Book this flight');
    await terminal.waitFor('the default yes', (screen) =>
      /● Yes/.test(after(screen, 'Book it · Book this flight')),
    );
    await terminal.press('Enter');

    const screen = await exited(terminal, 0);
    for (const shown of [
      'parley call book_flight',
      `Connected to ${booking.url}`,
      'modern era, MCP 2026-07-28',
      'book_flight asks (round 1)',
      'Where would you like to fly?',
      'book_flight asks (round 2)',
      'When would you like to fly to Paris?',
      'book_flight asks (round 3)',
      'Book a flight to Paris on 2026-08-01? Who is travelling?',
      'Ada Lovelace',
    ]) {
      expect(screen).toContain(shown);
    }
    expect(screen).toMatch(/^Booked BK-\d+: Ada Lovelace to Paris on 2026-08-01$/m);
  }, 120_000);

  test('Decline is one arrow key away', async () => {
    const terminal = await parley('call', booking.url, 'book_flight');
    await choose(terminal, 'Where would you like to fly?', ['Down']);
    const screen = await exited(terminal, 0);
    expect(after(screen, 'Where would you like to fly?')).toMatch(
      /Decline[\s\S]*Declined\.[\s\S]*^Booking cancelled\.$/m,
    );
  }, 120_000);

  test('Ctrl-C in a field cancels the question', async () => {
    const terminal = await parley('call', booking.url, 'book_flight');
    await choose(terminal, 'Where would you like to fly?', []);
    await promptOpen(terminal, 'Destination · City or airport');
    await terminal.press('C-c');
    const screen = await exited(terminal, 0);
    expect(after(screen, 'Destination · City or airport')).toMatch(
      /Cancelled\.[\s\S]*^Booking cancelled\.$/m,
    );
  }, 120_000);
});
