import type { SealingEngine, SealingEngineName } from './engine.ts';
import { createNodeEngine, loadNodeModules } from './nodeEngine.ts';
import { createWebCryptoEngine, loadWebCrypto } from './webCryptoEngine.ts';

// One engine of each kind per copy of the package: they hold no keys, only a random pool and
// encoders, so sealers can share them.
let nodeEngine: SealingEngine | undefined;
let webCryptoEngine: SealingEngine | undefined;

function node(): SealingEngine | undefined {
  if (nodeEngine === undefined) {
    const modules = loadNodeModules();
    if (modules !== undefined) nodeEngine = createNodeEngine(modules) as SealingEngine;
  }
  return nodeEngine;
}

function webCrypto(): SealingEngine | undefined {
  if (webCryptoEngine === undefined) {
    const crypto = loadWebCrypto();
    if (crypto !== undefined) webCryptoEngine = createWebCryptoEngine(crypto) as SealingEngine;
  }
  return webCryptoEngine;
}

/**
 * The engine a sealer uses. `'auto'` takes `node:crypto` wherever the runtime offers it (Node,
 * Bun, Deno) because it is several times faster there, and WebCrypto everywhere else. Asking for
 * an engine the runtime lacks is a configuration error, reported as a `TypeError` naming `api`.
 */
export function selectEngine(name: SealingEngineName, api: string): SealingEngine {
  const engine =
    name === 'webcrypto' ? webCrypto() : name === 'node' ? node() : (node() ?? webCrypto());
  if (engine !== undefined) return engine;
  if (name === 'node') {
    throw new TypeError(
      `${api}: engine 'node' needs node:crypto (through process.getBuiltinModule, Node ≥ 20.16), which this runtime does not provide; use engine 'webcrypto' or 'auto'`,
    );
  }
  throw new TypeError(
    `${api}: this runtime has no WebCrypto (globalThis.crypto.subtle)${name === 'auto' ? ' and no node:crypto' : ''}`,
  );
}
