import { h } from './dom.ts';

/**
 * What the person did, kept in this browser (localStorage) across reloads: the servers they
 * connected to and the calls they made, each restorable with one click. An authorization header
 * is kept only when the person ticked "remember" for it.
 */

export interface ServerRecord {
  kind: 'url' | 'command';
  /** The URL or the command line. */
  target: string;
  era: string;
  asAppHost: boolean;
  noElicitation: boolean;
  /** Only when the person asked for it to be remembered. */
  authorization?: string;
}

export interface CallRecord {
  /** The server it was made on, to connect again first. */
  server: ServerRecord;
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  name: string;
  args: Record<string, unknown>;
  /** The outcome in a few words: "done", or the error's sentence. */
  outcome: string;
  at: string;
}

interface Stored {
  servers: ServerRecord[];
  calls: CallRecord[];
}

export const HISTORY_KEY = 'parley-playground-history';
/** Enough to find yesterday's work, not so much the list is a chore. */
const KEPT = 20;

function load(): Stored {
  try {
    const stored = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? 'null') as Stored | null;
    if (Array.isArray(stored?.servers) && Array.isArray(stored.calls)) return stored;
  } catch {
    // A damaged entry is no history.
  }
  return { servers: [], calls: [] };
}

function save(stored: Stored): void {
  try {
    localStorage.setItem(HISTORY_KEY, JSON.stringify(stored));
  } catch {
    // A full or refused storage keeps no history; the page works without it.
  }
}

export interface History {
  addServer(record: ServerRecord): void;
  addCall(record: Omit<CallRecord, 'at'>): void;
}

export function createHistory(
  region: { servers: HTMLOListElement; calls: HTMLOListElement; clear: HTMLButtonElement },
  restore: { server(record: ServerRecord): void; call(record: CallRecord): void },
): History {
  function render(): void {
    const { servers, calls } = load();
    region.servers.replaceChildren(
      ...servers.map((record) => {
        const button = h(
          'button',
          { type: 'button' },
          `Connect again`,
          h('span', { class: 'visually-hidden' }, ` to ${record.target}`),
        );
        button.addEventListener('click', () => restore.server(record));
        return h(
          'li',
          {},
          h('code', {}, record.target),
          ` ${record.kind === 'command' ? 'stdio' : 'HTTP'}, era ${record.era}`,
          record.authorization !== undefined ? ', with authorization' : '',
          ' ',
          button,
        );
      }),
    );
    region.calls.replaceChildren(
      ...calls.map((record) => {
        const button = h(
          'button',
          { type: 'button' },
          'Restore',
          h('span', { class: 'visually-hidden' }, ` ${record.name} on ${record.server.target}`),
        );
        button.addEventListener('click', () => restore.call(record));
        return h(
          'li',
          {},
          h('code', {}, `${record.name} ${JSON.stringify(record.args)}`),
          ` on ${record.server.target}: ${record.outcome} `,
          button,
        );
      }),
    );
    region.clear.disabled = servers.length === 0 && calls.length === 0;
  }

  region.clear.addEventListener('click', () => {
    save({ servers: [], calls: [] });
    render();
  });
  render();

  return {
    addServer(record) {
      const stored = load();
      const others = stored.servers.filter(
        (kept) => kept.target !== record.target || kept.kind !== record.kind,
      );
      save({ ...stored, servers: [record, ...others].slice(0, KEPT) });
      render();
    },
    addCall(record) {
      const stored = load();
      save({
        ...stored,
        calls: [{ ...record, at: new Date().toISOString() }, ...stored.calls].slice(0, KEPT),
      });
      render();
    },
  };
}
