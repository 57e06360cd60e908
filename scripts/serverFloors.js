// @ts-check
/**
 * The floors of `@parley/server`, bottom to top, as data: `.dependency-cruiser.mjs` turns them
 * into rules (`pnpm deps`, part of `pnpm check`), `packages/server/ARCHITECTURE.md` explains
 * them, and `test/repo/serverFloors.test.ts` checks that every source file stands on one.
 *
 * A file may import from its own room (folder) and from any floor below its own; never from a
 * floor above, nor from another room of its own floor.
 *
 * @type {readonly { name: string; rooms: readonly string[]; owns: string }[]}
 */
export const serverFloors = [
  {
    name: 'utils',
    rooms: ['utils'],
    owns: 'helpers that know nothing of MCP: random ids, JSON checks, the lazy SDK loader',
  },
  {
    name: 'telemetry',
    rooms: ['telemetry'],
    owns: 'OpenTelemetry: the tracer and meter (global or given), one span per request with its attributes, trace context in and out, the metrics; nothing is built while nothing records',
  },
  {
    name: 'ask',
    rooms: ['ask'],
    owns: 'the ask vocabulary: builders, compiled response types, reading answers, records of what was asked, re-ask wording, per-version shapes, schema warnings',
  },
  {
    name: 'flow',
    rooms: ['flow'],
    owns: 'what a flow asked and was told across rounds, in one Flow object: the sealed envelope, single use of its token, the screened answers, the replay of ctx.ask and ctx.remember, re-asks, how a run ends early, the next envelope and its sealing',
  },
  {
    name: 'handler',
    rooms: ['handler'],
    owns: "the author's side: what is registered (definitions, parameters), each kind of handler's target and result shaping, and what a handler gets (Context, pushes, the askFallback)",
  },
  {
    name: 'round',
    rooms: ['round'],
    owns: 'one tools/call, prompts/get or resources/read from request to reply: targets by method, limits, middleware, the era gate, the error funnel',
  },
  {
    name: 'tasks',
    rooms: ['tasks'],
    owns: 'tools that run as tasks: the engine, its store and records, both eras’ task wire',
  },
  {
    name: 'runtime',
    rooms: ['runtime'],
    owns: 'what both eras serve beside rounds, and the runtime they share: lists, completion, change notifications, capabilities',
  },
  {
    name: 'eras',
    rooms: ['modern', 'handshake'],
    owns: 'the 2026-07-28 dispatcher (modern/) and the SDK sessions of 2025-11-25 and earlier (handshake/)',
  },
  {
    name: 'transports',
    rooms: ['http', 'stdio'],
    owns: 'how requests arrive: one HTTP endpoint for both eras and its Node and fetch hosts (http/), stdio (stdio/)',
  },
  {
    name: 'facade',
    rooms: ['facade'],
    owns: 'ParleyServer, which wires the floors together, with its options, registrations and runtime assembly',
  },
  { name: 'entry', rooms: ['index.ts'], owns: 'the public API: explicit exports only' },
];

/** The folder all rooms are in. */
export const serverSource = 'packages/server/src';
