/**
 * The public API of @parley/proxy. Everything exported here is public and versioned: add to it
 * deliberately, with a changeset.
 */

export { ParleyProxy } from './proxy.ts';
export type { ParleyProxyOptions } from './proxy.ts';
