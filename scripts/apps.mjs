// @ts-check
/**
 * The demo apps, their ports and how to start them: shared by `pnpm dev`, `pnpm demo` and the
 * end-to-end tests, so the three never disagree.
 */
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * @typedef {{ name: string; title: string; entry: string; portVariable: string; defaultPort: number }} App
 * @type {App[]}
 */
export const apps = [
  {
    name: 'booking',
    title: 'Booking Server',
    entry: 'apps/booking/src/main.ts',
    portVariable: 'BOOKING_PORT',
    defaultPort: 3001,
  },
  {
    name: 'reporting',
    title: 'Reporting Server',
    entry: 'apps/reporting/src/main.ts',
    portVariable: 'REPORTING_PORT',
    defaultPort: 3002,
  },
  {
    name: 'dual-era',
    title: 'Dual-Era Server',
    entry: 'apps/dual-era/src/main.ts',
    portVariable: 'DUAL_ERA_PORT',
    defaultPort: 3003,
  },
];

/**
 * The playground: not an MCP server but a page that talks to them (`pnpm dev` starts it after
 * the apps, with their URLs).
 *
 * @type {App}
 */
export const playground = {
  name: 'playground',
  title: 'Playground',
  entry: 'apps/playground/src/main.ts',
  portVariable: 'PLAYGROUND_PORT',
  defaultPort: 3000,
};

/**
 * The port `app` is to listen on: its variable when set (0 lets the system pick one), its
 * default otherwise; or the reason the variable is not a port.
 *
 * @param {App} app
 * @param {Record<string, string | undefined>} env
 * @returns {{ port: number } | { problem: string }}
 */
export function requestedPort(app, env = process.env) {
  const value = env[app.portVariable];
  if (value === undefined || value === '') return { port: app.defaultPort };
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65535) {
    return {
      problem: `${app.portVariable}=${value} is not a port: set it to a number from 0 to 65535 (0 picks a free one).`,
    };
  }
  return { port };
}

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
