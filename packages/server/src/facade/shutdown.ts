import { checkOptionKeys, optionKeys } from '@parley/core';

import type { RunningServer } from './options.ts';

/**
 * Shutting down on a signal, the way an orchestrator asks (Kubernetes, systemd, `docker stop`
 * send SIGTERM, a terminal SIGINT): the first signal drains the server gracefully (see
 * `RunningServer.close`) and then exits; a second one exits at once.
 */

const SIGNAL_OPTIONS = optionKeys<CloseOnSignalsOptions>()(['graceMs', 'signals', 'exit', 'log']);

/** Options of {@link closeOnSignals}. */
export interface CloseOnSignalsOptions {
  /** How long the drain may take. Default 10 000. */
  graceMs?: number;
  /** Default `['SIGTERM', 'SIGINT']`. */
  signals?: readonly NodeJS.Signals[];
  /** Exit the process once closed (code 0). Default `true`. */
  exit?: boolean;
  /** Where the two lines it writes go. Default stderr (stdout belongs to stdio servers). */
  log?: (line: string) => void;
}

/**
 * Close `running` gracefully when the process gets one of `signals`, then exit. Returns a
 * function that removes the handlers again.
 */
export function closeOnSignals(
  running: RunningServer,
  options: CloseOnSignalsOptions = {},
): () => void {
  checkOptionKeys('closeOnSignals', 'options', options, SIGNAL_OPTIONS);
  const {
    graceMs = 10_000,
    signals = ['SIGTERM', 'SIGINT'],
    exit = true,
    log = (line: string) => void process.stderr.write(`${line}\n`),
  } = options;
  if (typeof running?.close !== 'function') {
    throw new TypeError('closeOnSignals: pass the server run() returned.');
  }
  if (!Number.isSafeInteger(graceMs) || graceMs < 0) {
    throw new RangeError(
      `closeOnSignals: graceMs must be a whole number >= 0 (got ${String(graceMs)}).`,
    );
  }
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      log(`[parley] ${signal} again: exiting now`);
      process.exit(1);
    }
    closing = true;
    log(`[parley] ${signal}: draining (up to ${graceMs} ms), then exiting`);
    void running.close({ graceMs }).then(
      () => {
        if (exit) process.exit(0);
      },
      (error: unknown) => {
        log(`[parley] closing failed: ${String(error)}`);
        if (exit) process.exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
