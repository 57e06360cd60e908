import { eraOf } from '@parley/core';

console.log(eraOf('2025-11-25')); // handshake
console.log(eraOf('2026-07-28')); // modern
