import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { nodeArgs } from '../../../scripts/apps.mjs';
import { startTestHost, type OpenApp, type TestHost } from './appHost.ts';

/**
 * `book_flight` in a host that cannot ask but draws MCP Apps (the hosts most people use): the
 * booking app as a real process on 127.0.0.1 with the App route on, an SDK v2 client that
 * declares the UI extension and no elicitation, and ext-apps' own `AppBridge` showing Parley's
 * App in a real Chromium. A person types the answers into the App; the same `ctx.ask` handler
 * books. Both eras. The handshake run's screenshot becomes docs/public/app-route.png once every
 * test here has passed.
 */

const ENTRY = 'apps/booking/src/main.ts';
const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const SCREENSHOT = fileURLToPath(new URL('../../../docs/public/app-route.png', import.meta.url));

let url = '';
let booking: ChildProcess | undefined;
let host: TestHost;
let screenshot: Buffer | undefined;
let failed = false;

beforeAll(async () => {
  booking = spawn(process.execPath, nodeArgs(ENTRY), {
    env: { ...process.env, BOOKING_PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    booking!.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /serving (http:\/\/\S+)/.exec(seen)?.[1];
      if (found !== undefined) resolve(found);
    });
    booking!.once('exit', (code) => reject(new Error(`the booking app exited (${code}): ${seen}`)));
  });
  host = await startTestHost();
}, 120_000);

afterAll(async () => {
  booking?.kill('SIGTERM');
  await host?.close();
  if (!failed && screenshot !== undefined) await writeFile(SCREENSHOT, screenshot);
});

/** A host that draws Apps and cannot elicit, in `era`. */
async function appsHost(era: 'handshake' | 'modern'): Promise<Client> {
  const client = new Client(
    { name: 'apps-only-host', version: '1.0.0' },
    {
      capabilities: { extensions: UI } as never,
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function question(open: OpenApp, text: string): Promise<void> {
  await open.app.getByText(text).waitFor();
}

async function accept(open: OpenApp): Promise<void> {
  await open.app.getByRole('button', { name: 'Accept' }).click();
}

async function outcome(open: OpenApp): Promise<string> {
  await open.app.getByRole('heading', { name: /Done|It did not work/ }).waitFor();
  return (await open.app.locator('#status').textContent()) ?? '';
}

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    failed = true;
    throw error;
  }
}

describe.each(['handshake', 'modern'] as const)('book_flight through the App, %s era', (era) => {
  test('a person books by typing into the App; a wrong date is refused on its field and corrected', () =>
    guarded(async () => {
      const client = await appsHost(era);
      const open = await host.callWithApp(client, 'book_flight');
      try {
        await question(open, 'Where would you like to fly?');
        await open.app.getByLabel('Destination').fill('Lisbon');
        await accept(open);

        await question(open, 'When would you like to fly to Lisbon?');
        await open.app.getByLabel('Date').fill('tomorow');
        await accept(open);
        // Refused on its field, in the App, before anything is sent.
        await expect
          .poll(() => open.app.getByLabel('Date').getAttribute('aria-invalid'))
          .toBe('true');
        expect(open.modelContext).toEqual([]);
        await open.app.getByLabel('Date').fill('2026-09-01');
        await accept(open);

        await question(open, 'Book a flight to Lisbon on 2026-09-01? Who is travelling?');
        await open.app.getByLabel('Passenger').fill('Ada Lovelace');
        if (era === 'handshake') screenshot = await open.page.screenshot();
        expect(await open.axeViolations()).toEqual([]);
        await accept(open);

        const booked = await outcome(open);
        expect(booked).toMatch(/^Booked BK-\d{4}: Ada Lovelace to Lisbon on 2026-09-01$/);
        // The host's model is told, through the App API.
        await expect.poll(() => open.messages.length).toBe(1);
        expect(JSON.stringify(open.modelContext)).toContain(booked);
        expect(JSON.stringify(open.messages[0])).toContain(booked);
        const listed = await client.callTool({ name: 'list_bookings', arguments: {} });
        expect(JSON.stringify(listed.content)).toContain(booked.slice('Booked '.length));
      } finally {
        await open.close();
        await client.close();
      }
    }));

  test.each(['Decline', 'Cancel'] as const)('%s ends the flow as an elicitation would', (button) =>
    guarded(async () => {
      const client = await appsHost(era);
      const open = await host.callWithApp(client, 'book_flight');
      try {
        await question(open, 'Where would you like to fly?');
        await open.app.getByRole('button', { name: button }).click();
        expect(await outcome(open)).toBe('Booking cancelled.');
      } finally {
        await open.close();
        await client.close();
      }
    }),
  );

  test('a submission replayed or forged is refused; the booking is made once', () =>
    guarded(async () => {
      const client = await appsHost(era);
      try {
        // What the App sends, captured from the answer tool's own traffic.
        const first = await client.callTool({ name: 'book_flight', arguments: {} });
        const ask = (first._meta as Record<string, { requestState: string }>)['dev.parley/ask']!;
        const send = (requestState: string) =>
          client.callTool({
            name: 'parley_answer',
            arguments: {
              tool: 'book_flight',
              arguments: {},
              requestState,
              inputResponses: {
                destination: { action: 'accept', content: { destination: 'Rome' } },
              },
            },
          });
        const next = await send(ask.requestState);
        expect(JSON.stringify(next.content)).toContain('When would you like to fly to Rome?');
        // The same submission again: the outcome it had, not a second run.
        expect((await send(ask.requestState)).content).toEqual(next.content);
        // A forged state: refused, naming the state.
        const forged = `${ask.requestState.slice(0, -6)}AAAAAA`;
        await expect(send(forged)).rejects.toThrow(/requestState/);
      } finally {
        await client.close();
      }
    }));
});

describe.each(['handshake', 'modern'] as const)(
  'app-rendered elicitation (SEP-3118), %s era',
  (era) => {
    test('a host that declares ui.elicitation draws each form with the App; the answer is its ElicitResult', () =>
      guarded(async () => {
        const client = new Client(
          { name: 'app-elicitation-host', version: '1.0.0' },
          {
            capabilities: {
              elicitation: { form: {} },
              extensions: {
                'io.modelcontextprotocol/ui': {
                  ...UI['io.modelcontextprotocol/ui'],
                  elicitation: {},
                },
              },
            } as never,
            versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
          },
        );
        const shown: OpenApp[] = [];
        const schemas: unknown[] = [];
        // The host's elicitation handler: a form that names an App is drawn by it, bound to this
        // request, and the App is taken down once it answered.
        client.setRequestHandler('elicitation/create', async (request) => {
          const params = request.params as {
            requestedSchema?: unknown;
            _meta?: { ui?: { resourceUri?: string } };
          };
          schemas.push(params.requestedSchema);
          const uri = params._meta?.ui?.resourceUri;
          if (uri === undefined) throw new Error('the form names no App');
          const open = await host.showApp(client, uri);
          shown.push(open);
          try {
            return (await open.bridge.request({
              method: 'elicitation/create',
              params,
            } as never)) as never;
          } finally {
            await open.close();
          }
        });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        try {
          const call = client.callTool({ name: 'book_flight', arguments: {} });
          const answers: [string, string, string][] = [
            ['Where would you like to fly?', 'Destination', 'Oslo'],
            ['When would you like to fly to Oslo?', 'Date', '2026-10-02'],
            [
              'Book a flight to Oslo on 2026-10-02? Who is travelling?',
              'Passenger',
              'Grace Hopper',
            ],
          ];
          for (const [index, [text, label, value]] of answers.entries()) {
            await expect.poll(() => shown.length, { timeout: 10_000 }).toBe(index + 1);
            const open = shown[index]!;
            await question(open, text);
            await open.app.getByLabel(label).fill(value);
            await accept(open);
          }
          const result = await call;
          expect(JSON.stringify(result.content)).toMatch(
            /Booked BK-\d{4}: Grace Hopper to Oslo on 2026-10-02/,
          );
          // The schema travelled intact beside the App, for a host that falls back to its own form.
          expect(schemas[0]).toMatchObject({ properties: { destination: { type: 'string' } } });
        } finally {
          await client.close();
        }
      }));
  },
);
