// @ts-check
/**
 * The demo apps, their ports and how to start them: shared by `pnpm dev`, `pnpm demo` and the
 * end-to-end tests, so the three never disagree.
 */
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** @type {{ name: string; title: string; entry: string; portVariable: string; port: number }[]} */
export const apps = [
  {
    name: 'booking',
    title: 'Booking Server',
    entry: 'apps/booking/src/main.ts',
    portVariable: 'BOOKING_PORT',
    port: 3001,
  },
  {
    name: 'reporting',
    title: 'Reporting Server',
    entry: 'apps/reporting/src/main.ts',
    portVariable: 'REPORTING_PORT',
    port: 3002,
  },
  {
    name: 'dual-era',
    title: 'Dual-Era Server',
    entry: 'apps/dual-era/src/main.ts',
    portVariable: 'DUAL_ERA_PORT',
    port: 3003,
  },
];

/** The absolute URL of tsx's loader, so a host can start an app from any directory. */
export const tsxLoader = import.meta.resolve('tsx');

/**
 * Node arguments that run an app's TypeScript entry from source.
 *
 * @param {string} entry
 * @param {...string} extra
 */
export function nodeArgs(entry, ...extra) {
  return ['--conditions=@parley/source', '--import', tsxLoader, `${repoRoot}${entry}`, ...extra];
}
