import type * as NodeCrypto from 'node:crypto';

/**
 * Random ids and bytes: `node:crypto` where the runtime has it (Node, Bun, Deno), the global
 * WebCrypto `crypto` elsewhere. On Node the global is a separate set of internal modules, loaded
 * on first touch (about 1.5 ms, on the way to the first response), while `node:crypto` is loaded
 * anyway to seal request state. Both draw from the system's secure generator.
 */
type RandomSource = Pick<typeof NodeCrypto, 'randomUUID'> & {
  fill(bytes: Uint8Array): void;
};

let source: RandomSource | undefined;

function randomSource(): RandomSource {
  if (source !== undefined) return source;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  let node: Partial<typeof NodeCrypto> | undefined;
  try {
    node = proc?.getBuiltinModule?.('node:crypto') as Partial<typeof NodeCrypto> | undefined;
  } catch {
    node = undefined;
  }
  const { randomUUID, randomFillSync } = node ?? {};
  source =
    typeof randomUUID === 'function' && typeof randomFillSync === 'function'
      ? { randomUUID: () => randomUUID(), fill: (bytes) => void randomFillSync(bytes) }
      : {
          randomUUID: () => crypto.randomUUID(),
          fill: (bytes) => void crypto.getRandomValues(bytes),
        };
  return source;
}

/** A random RFC 9562 version 4 UUID. */
export function randomUUID(): `${string}-${string}-${string}-${string}-${string}` {
  return randomSource().randomUUID();
}

/** Fill `bytes` with secure random bytes. */
export function fillRandom(bytes: Uint8Array): void {
  randomSource().fill(bytes);
}
