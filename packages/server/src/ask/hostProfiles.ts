import { checkOptionKeys, isRecord, optionKeys, type Implementation } from '@parley/core';

/**
 * What is known about the hosts people use, beyond what they declare: some declare elicitation
 * and never draw it, some never advertise URL mode, some cannot draw a kind of field. Keyed by
 * `clientInfo.name` and a version range; each row says where it is known from. The server picks
 * an ask's route with it (a host that never draws elicitation gets the App, or the tool's
 * fallback) and adapts a form to what the host can draw. Servers add or override rows with the
 * `hostProfiles` option: a row of theirs with the same name and versions replaces the built-in.
 */

/** A kind of form field some hosts cannot draw. */
export type FieldKind = 'number' | 'integer' | 'multiSelect';

/** What is known about one host (a `clientInfo.name`, some versions of it). */
export interface HostProfile {
  /** The host's `clientInfo.name`, as it sends it (compared without regard to case). */
  name: string;
  /**
   * The versions the row covers: `'*'` (the default) or comparisons joined by spaces, all of
   * which must hold (`'>=2.1.76'`, `'>=1.0.0 <1.5.0'`). A host that sends no version matches only
   * `'*'`.
   */
  versions?: string;
  /** False when the host declares elicitation but never shows it to a person. */
  drawsElicitation?: boolean;
  /** False when the host cannot open URL-mode elicitations, whatever it declares. */
  urlMode?: boolean;
  /** Form fields the host cannot draw; a form that has them is adapted where it can be. */
  cannotRender?: readonly FieldKind[];
  /** How long the host waits for a call before giving up, when known (ms). */
  requestTimeoutMs?: number;
  /** Where this is known from: an issue, a changelog, a captured `initialize`. */
  source: string;
}

/** The built-in rows, autumn 2026. */
export const HOST_PROFILES: readonly HostProfile[] = [
  {
    name: 'claude-ai',
    drawsElicitation: false,
    requestTimeoutMs: 60_000,
    source:
      'Claude Desktop declares elicitation but never draws it; calls die at 60 s (anthropics/claude-code#88901). claude.ai sends the same name and declares none (anthropics/claude-ai-mcp#153).',
  },
  {
    name: 'claude-code',
    versions: '<2.1.76',
    drawsElicitation: false,
    source: 'Claude Code draws form elicitation from 2.1.76 (release notes, 2026-03-14).',
  },
  {
    name: 'claude-code',
    versions: '>=2.1.76',
    urlMode: false,
    source:
      'Claude Code never advertises URL mode, so URL asks cannot reach it (anthropics/claude-code#88075).',
  },
  {
    name: 'codex-mcp-client',
    cannotRender: ['number', 'integer', 'multiSelect'],
    source: 'OpenAI Codex draws no number, integer or multi-select fields (laravel/mcp#190).',
  },
  {
    name: 'Codex',
    cannotRender: ['number', 'integer', 'multiSelect'],
    source: 'OpenAI Codex draws no number, integer or multi-select fields (laravel/mcp#190).',
  },
  {
    name: 'ChatGPT',
    drawsElicitation: false,
    source: 'ChatGPT declares no elicitation (captured initialize, apify/mcp-client-capabilities).',
  },
  {
    name: 'gemini-cli-mcp-client',
    drawsElicitation: false,
    source: 'Gemini CLI has no elicitation (google-gemini/gemini-cli#22249, #28074).',
  },
];

const COMPARISON = /^(>=|<=|>|<|=)?(\d+(?:\.\d+){0,2})$/;

/** A version as three numbers (missing parts are 0); `undefined` when it is not one. */
function versionParts(version: string): [number, number, number] | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version.trim());
  if (match === null) return undefined;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < 3; index++) {
    if (a[index] !== b[index]) return a[index]! < b[index]! ? -1 : 1;
  }
  return 0;
}

/** True when `version` is in `range` (see {@link HostProfile.versions}). */
export function inVersionRange(range: string, version: string | undefined): boolean {
  if (range.trim() === '*') return true;
  const parts = version === undefined ? undefined : versionParts(version);
  if (parts === undefined) return false;
  return range
    .trim()
    .split(/\s+/)
    .every((term) => {
      const [, operator = '=', bound] = COMPARISON.exec(term)!;
      const order = compare(parts, versionParts(bound!)!);
      switch (operator) {
        case '>=':
          return order >= 0;
        case '<=':
          return order <= 0;
        case '>':
          return order > 0;
        case '<':
          return order < 0;
        default:
          return order === 0;
      }
    });
}

const FIELD_KINDS: ReadonlySet<unknown> = new Set(['number', 'integer', 'multiSelect']);
const PROFILE_KEYS = optionKeys<HostProfile>()([
  'name',
  'versions',
  'drawsElicitation',
  'urlMode',
  'cannotRender',
  'requestTimeoutMs',
  'source',
]);

/** Refuse a row that is not a profile, with a `TypeError` naming what is wrong. */
function checkProfile(row: unknown, index: number): HostProfile {
  const where = `ParleyServer: hostProfiles[${index}]`;
  if (!isRecord(row)) throw new TypeError(`${where} must be an object.`);
  checkOptionKeys('ParleyServer', `options.hostProfiles[${index}]`, row, PROFILE_KEYS);
  if (typeof row.name !== 'string' || row.name.length === 0) {
    throw new TypeError(`${where}.name must be the host's clientInfo.name.`);
  }
  if (typeof row.source !== 'string' || row.source.length === 0) {
    throw new TypeError(`${where}.source must say where this is known from.`);
  }
  const { versions } = row;
  if (
    versions !== undefined &&
    (typeof versions !== 'string' ||
      (versions.trim() !== '*' &&
        !versions
          .trim()
          .split(/\s+/)
          .every((term) => COMPARISON.test(term))))
  ) {
    throw new TypeError(
      `${where}.versions must be '*' or comparisons such as '>=2.1.76 <3' (got ${JSON.stringify(versions)}).`,
    );
  }
  for (const flag of ['drawsElicitation', 'urlMode'] as const) {
    if (row[flag] !== undefined && typeof row[flag] !== 'boolean') {
      throw new TypeError(`${where}.${flag} must be true or false.`);
    }
  }
  const { cannotRender, requestTimeoutMs } = row;
  if (
    cannotRender !== undefined &&
    (!Array.isArray(cannotRender) || !cannotRender.every((kind) => FIELD_KINDS.has(kind)))
  ) {
    throw new TypeError(`${where}.cannotRender must list 'number', 'integer' or 'multiSelect'.`);
  }
  if (
    requestTimeoutMs !== undefined &&
    (!Number.isSafeInteger(requestTimeoutMs) || (requestTimeoutMs as number) <= 0)
  ) {
    throw new TypeError(`${where}.requestTimeoutMs must be a whole number of milliseconds.`);
  }
  return row as unknown as HostProfile;
}

/**
 * The table a server uses: the built-in rows, with the server's added, and a server row with the
 * same name and versions as a built-in one in its place.
 */
export function hostProfilesOf(rows: readonly HostProfile[] | undefined): readonly HostProfile[] {
  if (rows === undefined) return HOST_PROFILES;
  if (!Array.isArray(rows)) throw new TypeError('ParleyServer: hostProfiles must be an array.');
  const own = rows.map((row, index) => checkProfile(row, index));
  const keyOf = (row: HostProfile) => `${row.name.toLowerCase()} ${row.versions ?? '*'}`;
  const replaced = new Set(own.map(keyOf));
  return [...HOST_PROFILES.filter((row) => !replaced.has(keyOf(row))), ...own];
}

/** What the table says of `client`, every matching row merged (later rows win); `undefined` when none. */
export function profileOf(
  table: readonly HostProfile[],
  client: Implementation | undefined,
): HostProfile | undefined {
  if (client === undefined) return undefined;
  const { name } = client;
  let found: HostProfile | undefined;
  for (const row of table) {
    // Every round asks this: names of another length are passed over without a copy.
    if (row.name.length !== name.length) continue;
    if (row.name !== name && row.name.toLowerCase() !== name.toLowerCase()) continue;
    if (!inVersionRange(row.versions ?? '*', client.version)) continue;
    found = found === undefined ? row : { ...found, ...row };
  }
  return found;
}
