import {
  TASKS_EXTENSION,
  checkOptionKeys,
  isRecord,
  optionKeys,
  type Implementation,
} from '@parley/core';

import { resolveHttpOptions, type ResolvedHttpOptions } from './http/httpOptions.ts';
import { checkRoots } from './samplingAndRoots.ts';
import { ClientTelemetry } from './telemetry.ts';
import type {
  CallOptions,
  ClientMode,
  ClientTelemetryOptions,
  ClientOptions,
  ElicitationHandler,
  RootsProvider,
  RoundEvent,
  SamplingHandler,
  TaskHandle,
  CallProgress,
  ListChangedKind,
} from './types.ts';

/** Client options with defaults applied, checked once at construction. */
export interface ResolvedOptions {
  mode: ClientMode;
  clientInfo: Implementation;
  elicitationHandler: ElicitationHandler | undefined;
  samplingHandler: SamplingHandler | undefined;
  roots: RootsProvider | undefined;
  maxRounds: number;
  timeoutMs: number;
  onRound: ((event: RoundEvent) => void) | undefined;
  warn: (message: string) => void;
  onElicitationComplete: ((elicitationId: string) => void) | undefined;
  onListChanged: ((kind: ListChangedKind) => void) | undefined;
  /** `auth`, `headers` and `fetch`, for an HTTP target. */
  http: ResolvedHttpOptions | undefined;
  tasks: boolean;
  extensions: Readonly<Record<string, object>>;
  telemetry: ClientTelemetry;
}

export const DEFAULT_MAX_ROUNDS = 10;
/** The SDK's own default wait for a response. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** The longest delay a timer takes (larger values fire at once). */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** Where warnings go: `onWarning` (what it throws ignored), or a line on stderr. */
function warningsTo(onWarning: ((message: string) => void) | undefined): (message: string) => void {
  if (onWarning === undefined) {
    // eslint-disable-next-line no-console -- a client's default log is stderr, as a server's
    return (message) => console.warn(`[parley] warning: ${message}`);
  }
  return (message) => {
    try {
      onWarning(message);
    } catch {
      // An observer must not break the request it observes.
    }
  };
}

const MODES: ReadonlySet<unknown> = new Set(['auto', 'modern', 'handshake']);

function checkRounds(api: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RangeError(
      `${api}: ${name} must be a whole number of rounds (0 or more), got ${String(value)}.`,
    );
  }
  return value;
}

function checkTimeout(api: string, value: unknown): number {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    value > MAX_TIMEOUT_MS
  ) {
    throw new RangeError(
      `${api}: timeoutMs must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS}, got ${String(value)}.`,
    );
  }
  return value;
}

function checkFunction<T>(name: string, value: unknown): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`Client: ${name} must be a function.`);
  }
  return value as T | undefined;
}

function checkBoolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`Client: ${name} must be true or false.`);
  return value;
}

function checkClientInfo(value: unknown): Implementation {
  if (value === undefined) return { name: 'parley-client', version: '0.0.0' };
  const info = value as Partial<Implementation> | null;
  if (typeof info?.name !== 'string' || typeof info.version !== 'string') {
    throw new TypeError('Client: clientInfo needs a name and a version, both strings.');
  }
  return info as Implementation;
}

function checkRootsOption(value: unknown): RootsProvider | undefined {
  if (value === undefined || typeof value === 'function') return value as RootsProvider | undefined;
  if (!Array.isArray(value)) {
    throw new TypeError(
      'Client: roots must be a list of { uri, name? } or a function returning one.',
    );
  }
  return Object.freeze(checkRoots(value));
}

const NO_EXTENSIONS: Readonly<Record<string, object>> = Object.freeze({});

function checkExtensions(value: unknown): Readonly<Record<string, object>> {
  if (value === undefined) return NO_EXTENSIONS;
  if (!isRecord(value)) {
    throw new TypeError(
      "Client: extensions must be an object of extension settings by id, e.g. { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } }.",
    );
  }
  for (const [id, settings] of Object.entries(value)) {
    if (id === TASKS_EXTENSION) {
      throw new TypeError(
        `Client: extensions may not name ${TASKS_EXTENSION}; the tasks option declares it.`,
      );
    }
    if (!isRecord(settings)) {
      throw new TypeError(
        `Client: extensions[${JSON.stringify(id)}] must be an object (its settings, {} for none).`,
      );
    }
  }
  return Object.freeze({ ...(value as Record<string, object>) });
}

const TELEMETRY_OPTIONS = optionKeys<ClientTelemetryOptions>()(['tracerProvider']);

function checkTelemetry(value: unknown): ClientTelemetry {
  if (value !== undefined && value !== false) {
    if (typeof value !== 'object' || value === null) {
      throw new TypeError('Client: telemetry must be an object or false.');
    }
    checkOptionKeys('Client', 'options.telemetry', value, TELEMETRY_OPTIONS);
    const provider = (value as ClientTelemetryOptions).tracerProvider;
    if (provider !== undefined && typeof provider?.getTracer !== 'function') {
      throw new TypeError(
        'Client: telemetry.tracerProvider must be a TracerProvider (getTracer()).',
      );
    }
  }
  return new ClientTelemetry(value as ClientTelemetryOptions | false | undefined);
}

/** The keys a client's options take, at every depth (see `checkOptionKeys`). */
const CLIENT_OPTIONS = optionKeys<ClientOptions>()(
  [
    'mode',
    'clientInfo',
    'elicitationHandler',
    'samplingHandler',
    'roots',
    'maxRounds',
    'timeoutMs',
    'onRound',
    'onWarning',
    'onElicitationComplete',
    'onListChanged',
    'auth',
    'headers',
    'fetch',
    'tasks',
    'extensions',
    'telemetry',
  ],
  {
    inputRequiredMaxRounds:
      'use maxRounds: the same bound, by the same name as the per-call option it defaults',
  },
);
const CALL_OPTIONS = optionKeys<CallOptions>()([
  'maxRounds',
  'signal',
  'timeoutMs',
  'onTask',
  'onProgress',
]);

/** Check the options of `new Client()` (for a target of `targetKind`) and apply the defaults. */
export function resolveOptions(
  options: ClientOptions,
  targetKind: 'http' | 'in-process' | 'stdio',
): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('Client: options must be an object.');
  }
  checkOptionKeys('Client', 'options', options, CLIENT_OPTIONS);
  const mode = options.mode ?? 'auto';
  if (!MODES.has(mode)) {
    throw new TypeError(
      `Client: mode must be 'auto', 'modern' or 'handshake', got ${JSON.stringify(mode)}.`,
    );
  }
  return {
    mode,
    clientInfo: checkClientInfo(options.clientInfo),
    elicitationHandler: checkFunction('elicitationHandler', options.elicitationHandler),
    samplingHandler: checkFunction('samplingHandler', options.samplingHandler),
    roots: checkRootsOption(options.roots),
    maxRounds:
      options.maxRounds === undefined
        ? DEFAULT_MAX_ROUNDS
        : checkRounds('Client', 'maxRounds', options.maxRounds),
    timeoutMs:
      options.timeoutMs === undefined
        ? DEFAULT_TIMEOUT_MS
        : checkTimeout('Client', options.timeoutMs),
    onRound: checkFunction('onRound', options.onRound),
    warn: warningsTo(checkFunction('onWarning', options.onWarning)),
    onElicitationComplete: checkFunction('onElicitationComplete', options.onElicitationComplete),
    onListChanged: checkFunction('onListChanged', options.onListChanged),
    http: resolveHttpOptions(options, targetKind),
    tasks: checkBoolean('tasks', options.tasks, true),
    extensions: checkExtensions(options.extensions),
    telemetry: checkTelemetry(options.telemetry),
  };
}

/** Check one call's options against the client's defaults. */
export function resolveCallOptions(
  api: string,
  options: CallOptions,
  defaults: ResolvedOptions,
): {
  maxRounds: number;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  onTask: ((task: TaskHandle) => void) | undefined;
  onProgress: ((progress: CallProgress) => void) | undefined;
} {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${api}: options must be an object.`);
  }
  checkOptionKeys(api, 'options', options, CALL_OPTIONS);
  const { maxRounds, timeoutMs, signal, onTask, onProgress } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`${api}: signal must be an AbortSignal.`);
  }
  if (onTask !== undefined && typeof onTask !== 'function') {
    throw new TypeError(`${api}: onTask must be a function.`);
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`${api}: onProgress must be a function.`);
  }
  return {
    maxRounds:
      maxRounds === undefined ? defaults.maxRounds : checkRounds(api, 'maxRounds', maxRounds),
    timeoutMs: timeoutMs === undefined ? defaults.timeoutMs : checkTimeout(api, timeoutMs),
    signal,
    onTask,
    onProgress,
  };
}

/** A call's name or URI: a non-empty string. */
export function checkName(api: string, what: string, value: unknown): void {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${api}: the ${what} must be a non-empty string.`);
  }
}

/** A call's arguments: an object. */
export function checkArguments(api: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${api}: arguments must be an object.`);
  }
}
