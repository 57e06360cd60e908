import { spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, describe, expect, test } from 'vitest';

import type { Booking } from '../../../apps/booking/src/bookingStore.ts';
import { createFileBookingStore } from '../../../apps/booking/src/fileBookingStore.ts';
import { nodeArgs } from '../../../scripts/apps.mjs';
import { bookFlight, replyText } from '../bookingRound.ts';

/**
 * The booking app's file store (BOOKING_STORE), on real files: a log of JSON lines that survives
 * restarts and crashes mid-write, grows by one line per change, and serves one process only
 * (another process, here the app itself, is refused).
 */

const dir = mkdtempSync(join(tmpdir(), 'parley-booking-file-'));
let n = 0;
const freshPath = () => join(dir, `bookings-${++n}.jsonl`);
const trip = (passenger: string) => ({ destination: 'Oslo', date: '2026-09-01', passenger });
const ids = (bookings: Booking[]) => bookings.map((booking) => booking.id);
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);
const quiet = { warn: () => {} };

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The booking app with BOOKING_STORE=`path`: its URL once serving, or its exit and stderr. */
function startApp(path: string): {
  child: ChildProcess;
  serving: Promise<string>;
  exited: Promise<{ code: number | null; stderr: string }>;
} {
  const child = spawn(process.execPath, nodeArgs('apps/booking/src/main.ts'), {
    env: { ...process.env, BOOKING_PORT: '0', BOOKING_STORE: path, REDIS_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr })),
  );
  const serving = new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /serving (http:\/\/\S+)/.exec(stderr)?.[1];
      if (url !== undefined) resolve(url);
    });
    void exited.then(({ code }) => reject(new Error(`app exited (${code}): ${stderr}`)));
  });
  serving.catch(() => {});
  return { child, serving, exited };
}

describe('the file booking store', () => {
  test('a restart keeps the bookings and the counter; a cancelled id is not given again', async () => {
    const path = freshPath();
    const first = await createFileBookingStore(path, quiet);
    for (const name of ['Ada', 'Grace', 'Edsger']) await first.add(trip(name));
    // Two cancellations of one booking at once: one removes it, the other finds nothing.
    const removals = await Promise.all([first.remove('BK-0003'), first.remove('BK-0003')]);
    expect(removals.map((booking) => booking?.passenger)).toEqual(['Edsger', undefined]);
    await first.close();

    const second = await createFileBookingStore(path, quiet);
    expect((await second.list()).map((b) => [b.id, b.passenger])).toEqual([
      ['BK-0001', 'Ada'],
      ['BK-0002', 'Grace'],
    ]);
    expect((await second.add(trip('Barbara'))).id).toBe('BK-0004');
    expect(await second.get('BK-0003')).toBeUndefined();
    await second.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  test('a log mostly of cancelled bookings is compacted, and keeps its counter', async () => {
    const path = freshPath();
    const store = await createFileBookingStore(path, { ...quiet, compactAfter: 4 });
    for (let i = 1; i <= 8; i++) await store.add(trip(`P${i}`));
    for (let i = 2; i <= 8; i++) await store.remove(`BK-000${i}`);
    // 15 changes, 1 booking left: rewritten on the way, starting with the counter.
    const log = lines(path).map((line) => JSON.parse(line) as { op: string });
    expect(log.length).toBeLessThan(15);
    expect(log[0]).toEqual({ op: 'counter', last: 8 });
    await store.add(trip('after'));
    await store.close();
    const again = await createFileBookingStore(path, quiet);
    expect(ids(await again.list())).toEqual(['BK-0001', 'BK-0009']);
    expect((await again.add(trip('next'))).id).toBe('BK-0010');
    await again.close();
  });

  test('a torn last line (a crash mid-write) is dropped; the lines before it are kept', async () => {
    const path = freshPath();
    const store = await createFileBookingStore(path, quiet);
    await store.add(trip('Ada'));
    await store.add(trip('Grace'));
    await store.close();
    const torn = '{"op":"add","booking":{"id":"BK-0003","destin';
    appendFileSync(path, torn);

    const warnings: string[] = [];
    const reopened = await createFileBookingStore(path, { warn: (line) => warnings.push(line) });
    expect(warnings).toEqual([
      `booking store: ${path} ended in a torn line (a write cut short); dropped its last ${torn.length} bytes`,
    ]);
    expect(ids(await reopened.list())).toEqual(['BK-0001', 'BK-0002']);
    // The torn booking was never confirmed: its number is free.
    expect((await reopened.add(trip('Edsger'))).id).toBe('BK-0003');
    await reopened.close();
    expect(lines(path)).toHaveLength(3);
    expect(lines(path).every((line) => JSON.parse(line) !== undefined)).toBe(true);
  });

  test('a whole last line without its newline is kept, and the next one starts on its own line', async () => {
    const path = freshPath();
    const booking = { id: 'BK-0007', ...trip('Ada'), bookedAt: '2026-01-01T00:00:00.000Z' };
    writeFileSync(path, JSON.stringify({ op: 'add', booking }));
    const store = await createFileBookingStore(path, quiet);
    expect((await store.add(trip('Grace'))).id).toBe('BK-0008');
    await store.close();
    const again = await createFileBookingStore(path, quiet);
    expect(ids(await again.list())).toEqual(['BK-0007', 'BK-0008']);
    await again.close();
  });

  test('a damaged line with entries after it is refused, naming the line', async () => {
    const path = freshPath();
    const store = await createFileBookingStore(path, quiet);
    await store.add(trip('Ada'));
    await store.close();
    appendFileSync(path, 'not json\n');
    const good = lines(path)[0]!.replace('BK-0001', 'BK-0002');
    appendFileSync(path, `${good}\n`);
    await expect(createFileBookingStore(path, quiet)).rejects.toThrow(
      `booking store: ${path} is damaged at line 2`,
    );
    // Refused without keeping the file locked.
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  test('the JSON array the store used to write is read and rewritten as a log', async () => {
    const path = freshPath();
    const old = [2, 5].map((i) => ({
      id: `BK-000${i}`,
      ...trip(`P${i}`),
      bookedAt: '2026-01-01T00:00:00.000Z',
    }));
    writeFileSync(path, JSON.stringify(old, null, 2));
    const store = await createFileBookingStore(path, quiet);
    expect(await store.list()).toEqual(old);
    expect((await store.add(trip('new'))).id).toBe('BK-0006');
    await store.close();
    expect(lines(path).map((line) => (JSON.parse(line) as { op: string }).op)).toEqual([
      'counter',
      'add',
      'add',
      'add',
    ]);
  });

  test('1,000 adds: each appends its one line, the file is never rewritten; concurrent adds get distinct ids', async () => {
    const path = freshPath();
    const store = await createFileBookingStore(path, quiet);
    await store.add(trip('first'));
    const inode = statSync(path).ino;
    for (let i = 2; i <= 1000; i++) {
      const before = statSync(path).size;
      const booking = await store.add(trip(`P${i}`));
      const line = `${JSON.stringify({ op: 'add', booking })}\n`;
      expect(statSync(path).size - before).toBe(Buffer.byteLength(line));
    }
    expect(statSync(path).ino).toBe(inode);

    const concurrent = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => store.add(trip(`C${i}`))),
    );
    expect(new Set(ids(concurrent)).size).toBe(1000);
    expect(lines(path)).toHaveLength(2000);
    await store.close();

    const again = await createFileBookingStore(path, quiet);
    const all = await again.list();
    expect(all).toHaveLength(2000);
    expect(all.at(-1)?.id).toBe('BK-2000');
    await again.close();
  });
});

describe('one process per booking file', () => {
  test('a second store on the file in this process is refused until the first closes', async () => {
    const path = freshPath();
    const store = await createFileBookingStore(path, quiet);
    await expect(createFileBookingStore(path, quiet)).rejects.toThrow(
      `booking store: ${path} is in use by this process (${process.pid})`,
    );
    await store.close();
    await (await createFileBookingStore(path, quiet)).close();
  });

  test('the app refuses a file this process holds, saying replicas use Redis', async () => {
    const path = freshPath();
    const store = await createFileBookingStore(path, quiet);
    const { code, stderr } = await startApp(path).exited;
    await store.close();
    expect(code).toBe(1);
    expect(stderr).toContain(`booking: booking store: ${path} is in use by process ${process.pid}`);
    expect(stderr).toContain('replicas share bookings through Redis (set REDIS_URL)');
  });

  test('a file the app holds is refused here; once the app is killed, its lock is stale and its bookings are kept', async () => {
    const path = freshPath();
    const app = startApp(path);
    const url = await app.serving;
    const booked = await bookFlight([url], {
      destination: 'Lisbon',
      date: '2026-10-10',
      passenger: 'Ada Lovelace',
    });
    expect(replyText(booked)).toBe('Booked BK-0001: Ada Lovelace to Lisbon on 2026-10-10');
    await expect(createFileBookingStore(path, quiet)).rejects.toThrow(
      `booking store: ${path} is in use by process ${app.child.pid}`,
    );

    app.child.kill('SIGKILL');
    await app.exited;
    expect(existsSync(`${path}.lock`)).toBe(true);
    const store = await createFileBookingStore(path, quiet);
    expect((await store.list()).map((b) => b.passenger)).toEqual(['Ada Lovelace']);
    expect((await store.add(trip('Grace'))).id).toBe('BK-0002');
    await store.close();
  });
});
