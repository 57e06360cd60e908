import { afterEach, describe, expect, it, vi } from 'vitest';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A fresh copy of the module: it picks its source once, on first use. */
async function freshRandomness() {
  vi.resetModules();
  return import('../src/utils/randomness.ts');
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('random ids and bytes', () => {
  it('draws from node:crypto on Node, never touching the global WebCrypto', async () => {
    const webUuid = vi.spyOn(globalThis.crypto, 'randomUUID');
    const webFill = vi.spyOn(globalThis.crypto, 'getRandomValues');
    const { randomUUID, fillRandom } = await freshRandomness();

    const ids = new Set(Array.from({ length: 100 }, () => randomUUID()));
    const bytes = new Uint8Array(64);
    fillRandom(bytes);

    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(bytes.some((byte) => byte !== 0)).toBe(true);
    expect(webUuid).not.toHaveBeenCalled();
    expect(webFill).not.toHaveBeenCalled();
  });

  it('falls back to the global WebCrypto where there is no node:crypto (edge runtimes)', async () => {
    vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
    const webUuid = vi.spyOn(globalThis.crypto, 'randomUUID');
    const webFill = vi.spyOn(globalThis.crypto, 'getRandomValues');
    const { randomUUID, fillRandom } = await freshRandomness();

    expect(randomUUID()).toMatch(UUID_V4);
    const bytes = new Uint8Array(64);
    fillRandom(bytes);

    expect(bytes.some((byte) => byte !== 0)).toBe(true);
    expect(webUuid).toHaveBeenCalledOnce();
    expect(webFill).toHaveBeenCalledWith(bytes);
  });

  it('falls back when node:crypto is an incomplete polyfill', async () => {
    vi.stubGlobal('process', { ...process, getBuiltinModule: () => ({ randomUUID: 'no' }) });
    const webUuid = vi.spyOn(globalThis.crypto, 'randomUUID');
    const { randomUUID } = await freshRandomness();

    expect(randomUUID()).toMatch(UUID_V4);
    expect(webUuid).toHaveBeenCalledOnce();
  });
});
