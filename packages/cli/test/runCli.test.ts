import { createServer } from 'node:net';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { CANCELLED, DECLINED } from '../src/prompter.ts';
import { USAGE } from '../src/usage.ts';
import {
  NODE_FROM_SOURCE,
  repoRoot,
  startApp,
  stdioCommand,
  type RunningApp,
} from './helpers/demoApps.ts';
import { parley } from './helpers/runParley.ts';

/** A port nothing listens on: bound once by the system, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let booking: RunningApp;
let reporting: RunningApp;

beforeAll(async () => {
  [booking, reporting] = await Promise.all([startApp('booking'), startApp('reporting')]);
}, 60_000);

afterAll(async () => {
  await Promise.all([booking?.stop(), reporting?.stop()]);
});

describe('parley call', () => {
  test('--no-elicitation: a host that cannot ask; without a terminal book_flight says what to ask, then books with the arguments', async () => {
    const asked = await parley(['call', booking.url, 'book_flight', '--no-elicitation'], [], {
      interactive: false,
    });
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain('- destination: Where would you like to fly?');
    expect(asked.stdout).toContain(
      'call book_flight again with the same arguments and these added:',
    );
    const tools = await parley(['tools', booking.url, '--no-elicitation']);
    expect(tools.stdout).not.toContain('cancel_booking');
    const booked = await parley([
      'call',
      booking.url,
      'book_flight',
      '--no-elicitation',
      'destination=Paris',
      'date=2026-08-01',
      'passenger=Ada Lovelace',
    ]);
    expect(booked.code).toBe(0);
    expect(booked.stdout).toMatch(/^Booked BK-\d+: Ada Lovelace to Paris on 2026-08-01\n$/);
  });

  test('book_flight: three rounds answered, the booking printed on stdout', async () => {
    const { code, stdout, screen } = await parley(
      ['call', booking.url, 'book_flight'],
      ['Paris', '2026-08-01', 'Ada Lovelace', true],
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Booked BK-\d+: Ada Lovelace to Paris on 2026-08-01\n$/);
    const questions = screen.filter(
      (line) => line.startsWith('question:') || line.startsWith('?') || /^ {2}\w/.test(line),
    );
    expect(questions).toEqual([
      'question: book_flight asks (round 1)',
      "  route: elicitation (the client's own form)",
      '  Where would you like to fly?',
      '? Destination · City or airport · at least 2 characters',
      'question: book_flight asks (round 2)',
      "  route: elicitation (the client's own form)",
      '  When would you like to fly to Paris?',
      '? Date · Departure date (YYYY-MM-DD)',
      'question: book_flight asks (round 3)',
      "  route: elicitation (the client's own form)",
      '  Book a flight to Paris on 2026-08-01? Who is travelling?',
      '? Passenger · Full name as on the passport',
      '? Book it · Book this flight',
    ]);
    expect(screen[0]).toBe('intro: parley call book_flight');
    expect(screen).toContain(`info: Connected to ${booking.url}\nmodern era, MCP 2026-07-28`);
    expect(screen.at(-1)).toBe('outro: Result');
  });

  test('the same over a handshake-era session', async () => {
    const { code, stdout } = await parley(
      ['call', booking.url, 'book_flight', '--mode', 'handshake'],
      ['Oslo', '2026-09-02', 'Grace Hopper', true],
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/Booked BK-\d+: Grace Hopper to Oslo on 2026-09-02/);
  });

  test('declining the first question ends the booking; the server says so', async () => {
    const { code, stdout, screen } = await parley(['call', booking.url, 'book_flight'], [DECLINED]);
    expect(code).toBe(0);
    expect(stdout).toBe('Booking cancelled.\n');
    expect(screen).toContain('warn: Declined.');
  });

  test('Ctrl-C on a field cancels the rest of its round', async () => {
    const { code, stdout, screen } = await parley(
      ['call', booking.url, 'plan_meeting'],
      [CANCELLED],
    );
    expect(code).toBe(0);
    expect(stdout).toBe('Meeting planning cancelled\n');
    expect(screen.filter((line) => line.startsWith('info: Cancelled with the rest'))).toHaveLength(
      2,
    );
  });

  test('select, multi-select and defaults reach the server as values', async () => {
    expect((await parley(['call', booking.url, 'set_priority'], ['high'])).stdout).toBe(
      'Priority set to: high\n',
    );
    expect(
      (await parley(['call', booking.url, 'select_tags'], [['bug', 'documentation']])).stdout,
    ).toBe('Selected tags: bug, documentation\n');
    expect(
      (await parley(['call', booking.url, 'create_task'], ['Write docs', '', 'medium'])).stdout,
    ).toBe('Created task: Write docs (Priority: medium)\n');
  });

  test('a required argument left out is asked for, then the tool is called', async () => {
    const { code, stdout, screen } = await parley(
      ['call', booking.url, 'cancel_booking'],
      ['', 'BK-9999'],
    );
    expect(code).toBe(0);
    expect(stdout).toBe('No booking BK-9999.\n');
    expect(screen).toEqual(
      expect.arrayContaining([
        'question: cancel_booking needs an argument',
        '  Not on the command line: id. Fill it in here (or give id=… next time).',
        '  (Ctrl-D or Esc: do not call it)',
        '? id · Booking id, e.g. BK-0001',
        '! id is required',
      ]),
    );
  });

  test('leaving the argument question calls nothing', async () => {
    const { code, stdout, screen } = await parley(
      ['call', booking.url, 'cancel_booking'],
      [CANCELLED],
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(screen).toContain(
      'warn: Not called: cancel_booking needs its arguments, and you cancelled.',
    );
  });

  test('without a terminal, a missing argument is a usage error that names it', async () => {
    const { code, screen } = await parley(['call', booking.url, 'cancel_booking'], [], {
      interactive: false,
    });
    expect(code).toBe(2);
    expect(screen).toContain('error: cancel_booking needs id; give it as id=<value>.');
  });

  test('key=value arguments are typed by the tool’s schema', async () => {
    const { code, stdout } = await parley(['call', booking.url, 'cancel_booking', 'id=BK-9999']);
    expect(code).toBe(0);
    expect(stdout).toBe('No booking BK-9999.\n');
  });

  test('sampling is typed by the person, roots are the current directory', async () => {
    const { code, stdout, screen } = await parley(
      ['call', reporting.url, 'summarize_workspace'],
      ['Revenue grew every quarter.'],
    );
    expect(code).toBe(0);
    expect(stdout).toBe(
      `Workspace: ${basename(repoRoot)}. Model (human (parley cli)): Revenue grew every quarter.\n`,
    );
    expect(screen).toContain(
      `info: Sharing the current directory as a root: ${pathToFileURL(repoRoot).href}`,
    );
    expect(
      screen.some((line) =>
        line.startsWith('note Conversation: system: You are a concise financial analyst.'),
      ),
    ).toBe(true);
  });

  test('an unknown tool is a usage error that lists the tools', async () => {
    const { code, screen } = await parley(['call', booking.url, 'book_hotel']);
    expect(code).toBe(2);
    expect(screen).toContain(
      'error: The server has no tool "book_hotel"; it has: book_flight, list_bookings, cancel_booking, plan_meeting, set_priority, select_tags, create_task, confirm_purchase.',
    );
  });

  test('without a terminal, a question fails the call with a reason', async () => {
    const { code, screen } = await parley(['call', booking.url, 'book_flight'], [], {
      interactive: false,
    });
    expect(code).toBe(1);
    expect(screen.some((line) => line.includes('stdin is not a terminal'))).toBe(true);
  });

  test('Ctrl-C while waiting for the server stops the call', async () => {
    const interrupt = new AbortController();
    interrupt.abort(new Error('Interrupted (Ctrl-C).'));
    const { code, screen } = await parley(['call', booking.url, 'book_flight'], [], {
      signal: interrupt.signal,
    });
    expect(code).toBe(1);
    expect(screen).toContain('error: Interrupted (Ctrl-C).');
  });

  test('a server that is not there exits 1 saying what to check', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const { code, screen } = await parley(['call', url, 'book_flight']);
    expect(code).toBe(1);
    expect(screen).toContain(
      `error: Nothing is listening at ${url}: is the server running, and on port ${new URL(url).port}?`,
    );
  });
});

describe('parley tools, prompt, read', () => {
  test('tools lists names, descriptions and arguments on stdout', async () => {
    const { code, stdout, stderr } = await parley(['tools', booking.url]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain(
      'book_flight       Book a flight: asks where, when, and who travels (three\n',
    );
    expect(stdout).toContain('                  id=<string> · Booking id, e.g. BK-0001\n');
  });

  test('prompts and resources list what the server offers, templates included', async () => {
    const prompts = await parley(['prompts', reporting.url]);
    expect(prompts.code).toBe(0);
    expect(prompts.stdout).toBe('summarize  Summarize a quarter (asks which one).\n');
    const resources = await parley(['resources', reporting.url]);
    expect(resources.code).toBe(0);
    expect(resources.stdout).toBe(
      [
        'Resources:',
        '  report://summary  Quarterly summary · (text/plain)',
        '',
        'Resource templates (read them with the {variables} filled in):',
        '  report://{quarter}/revenue  Revenue of one quarter · (text/plain)',
        '',
      ].join('\n'),
    );
    const none = await parley(['prompts', booking.url]);
    expect(none.stdout).toBe('The server lists no prompts.\n');
  });

  test('prompt answers its question', async () => {
    const { code, stdout } = await parley(['prompt', reporting.url, 'summarize'], ['Q2']);
    expect(code).toBe(0);
    expect(stdout).toContain('user: Summarize the Q2 results for the leadership team.');
  });

  test('read answers its question', async () => {
    const { code, stdout } = await parley(['read', reporting.url, 'report://Q1/revenue'], ['USD']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Revenue for Q1\n.*USD/);
  });

  test('a stdio server: -- <command>', async () => {
    const { code, stdout } = await parley(
      ['call', 'set_priority', '--', ...stdioCommand('booking')],
      ['low'],
    );
    expect(code).toBe(0);
    expect(stdout).toBe('Priority set to: low\n');
  });
});

describe('what the demo apps do not show (a handshake-era stdio server)', () => {
  const server = [
    '--',
    process.execPath,
    ...NODE_FROM_SOURCE,
    fileURLToPath(new URL('./fixtures/cornerCasesServer.ts', import.meta.url)),
  ];

  test('a tool error is shown as one and exits 1; a structured result is JSON; URL consent; typed arguments', async () => {
    const failed = await parley(['call', 'fail', '--mode', 'handshake', ...server]);
    expect(failed.code).toBe(1);
    expect(failed.screen).toContain('error: fail reported an error:');
    expect(failed.stdout).toBe('Disk full\n');

    const structured = await parley(['call', 'structured', '--mode', 'handshake', ...server]);
    expect(structured.code).toBe(0);
    expect(structured.stdout).toBe(`${JSON.stringify({ total: 3, items: ['a', 'b'] }, null, 2)}\n`);

    const signIn = await parley(['call', 'sign_in', '--mode', 'handshake', ...server], [true]);
    expect(signIn.stdout).toBe('sign_in: accept\n');
    expect(signIn.screen).toContain(
      'note Open this URL in your browser: https://auth.example.com/login',
    );

    const echo = await parley([
      'call',
      'echo',
      'id=0001',
      'count=3',
      'urgent=false',
      '--mode',
      'handshake',
      ...server,
    ]);
    expect(JSON.parse(echo.stdout)).toEqual({ id: '0001', count: 3, urgent: false });
    // Four CLI runs, each starting a stdio server through tsx: slow while the suite loads both cores.
  }, 120_000);
});

describe('usage', () => {
  test('--help prints the usage on stdout and exits 0', async () => {
    const { code, stdout } = await parley(['--help']);
    expect(code).toBe(0);
    expect(stdout).toBe(USAGE);
    for (const line of USAGE.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  test('a wrong command line exits 2 with the reason on stderr', async () => {
    const { code, stdout, stderr } = await parley(['call', booking.url]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      "parley: parley call needs the name of the tool (parley tools <target> lists them).\nRun 'parley --help' for usage.\n",
    );
  });
});
