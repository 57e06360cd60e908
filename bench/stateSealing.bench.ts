/**
 * Seal+open throughput of Parley's request-state sealer against the MCP SDK's
 * `createRequestStateCodec` (mint+verify, HMAC-SHA256, WebCrypto) and against raw `node:crypto`
 * AES-256-GCM, on the same ~200-byte JSON state, in one process.
 *
 *   pnpm --filter @parley/bench bench:sealing        (or: npx tsx --conditions=@parley/source stateSealing.bench.ts)
 *
 * Each contender is warmed up, then timed in interleaved rounds of a fixed duration; the median
 * round is reported. Quote the ratios, which survive a change of machine better than ops/s.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import { createRequestStateCodec } from '@modelcontextprotocol/server';
import { createMemoryReplayStore, createRequestStateSealer } from '@parley/state-sealing';

const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

// What a multi-round booking tool might carry between rounds.
const STATE = JSON.stringify({
  step: 'need-date',
  destination: 'Lisbon',
  travellers: 2,
  quote: { id: 'q_7f3a9c2e41', currency: 'EUR', total: 1284.5 },
  answered: ['destination', 'travellers'],
  flowId: '6f0f7c1e-2b7a-4c55-9d1e-8a1f3b2c4d5e',
});
const SECRET = 'a3f1c9e07b2d4e6f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7';
const BINDING = {
  method: 'tools/call',
  target: 'book_trip',
  arguments: { destination: 'Lisbon', travellers: 2 },
};

type Contender = { name: string; run: () => void | Promise<void> };

function check(actual: unknown): void {
  if (actual !== STATE) throw new Error('round trip returned something else');
}

function rawNodeAesGcm(): Contender {
  const key = randomBytes(32);
  return {
    name: 'raw node:crypto AES-256-GCM',
    run() {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const sealed = Buffer.concat([cipher.update(STATE, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAuthTag(tag);
      check(Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8'));
    },
  };
}

function parley(name: string, engine: 'auto' | 'webcrypto', singleUse = false): Contender {
  const sealer = createRequestStateSealer({
    keys: [SECRET],
    audience: 'booking-server',
    engine,
    ...(singleUse ? { replayStore: createMemoryReplayStore({ maxEntries: 10_000_000 }) } : {}),
  });
  return {
    name,
    async run() {
      check(await sealer.open(await sealer.seal(STATE, BINDING), BINDING));
    },
  };
}

function sdkCodec(withBind: boolean): Contender {
  const codec = createRequestStateCodec<string>({
    key: SECRET,
    ...(withBind ? { bind: () => `${BINDING.method}\0${BINDING.target}` } : {}),
  });
  // The codec only hands ctx to `bind`, which here ignores it.
  const ctx = {} as Parameters<typeof codec.verify>[1];
  return {
    name: `SDK createRequestStateCodec (HMAC${withBind ? ', bind' : ''})`,
    async run() {
      check(await codec.verify(await codec.mint(STATE, ctx), ctx));
    },
  };
}

/** Runs `contender` for about `ms` milliseconds; returns operations per second. */
async function timed(contender: Contender, ms: number): Promise<number> {
  let operations = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 64; i++) await contender.run();
    operations += 64;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return (operations * 1000) / elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const contenders = [
  rawNodeAesGcm(),
  parley('Parley sealer (engine auto → node:crypto)', 'auto'),
  parley('Parley sealer (engine webcrypto)', 'webcrypto'),
  parley('Parley sealer (auto, single-use memory store)', 'auto', true),
  sdkCodec(true),
  sdkCodec(false),
];

console.log(
  `Node ${process.version}, ${process.platform}/${process.arch}; state ${Buffer.byteLength(STATE)} bytes; ` +
    `warm-up ${WARMUP_MS} ms, ${ROUNDS} interleaved rounds of ${ROUND_MS} ms, median reported\n`,
);
for (const contender of contenders) await timed(contender, WARMUP_MS);
const samples = new Map<Contender, number[]>(contenders.map((c) => [c, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const contender of contenders)
    samples.get(contender)!.push(await timed(contender, ROUND_MS));
}

const opsPerSecond = new Map(contenders.map((c) => [c.name, median(samples.get(c)!)]));
const width = Math.max(...contenders.map((c) => c.name.length));
console.log(`${'seal+open'.padEnd(width)}  ops/s`);
for (const [name, ops] of opsPerSecond) {
  console.log(`${name.padEnd(width)}  ${Math.round(ops).toLocaleString('en-US').padStart(9)}`);
}

const of = (name: string) => opsPerSecond.get(name)!;
const parleyOps = of(contenders[1]!.name);
const rawOps = of(contenders[0]!.name);
const sdkBind = of(contenders[4]!.name);
const sdkPlain = of(contenders[5]!.name);
console.log(`
Parley ÷ raw node:crypto AES-GCM (throughput): ${(parleyOps / rawOps).toFixed(2)}  → Parley takes ${(rawOps / parleyOps).toFixed(2)}× the time of raw AES-GCM (target ≤ 2×)
Parley ÷ SDK codec (HMAC, bind):               ${(parleyOps / sdkBind).toFixed(2)}× (target > 1)
Parley ÷ SDK codec (HMAC, no bind):            ${(parleyOps / sdkPlain).toFixed(2)}×
Parley on WebCrypto ÷ SDK codec (HMAC, bind):  ${(of(contenders[2]!.name) / sdkBind).toFixed(2)}×
node:crypto engine ÷ WebCrypto engine:         ${(parleyOps / of(contenders[2]!.name)).toFixed(2)}×`);
