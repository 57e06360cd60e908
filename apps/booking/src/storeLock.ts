import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

/**
 * One process per booking file: a lock file next to it holds the owner's pid. The file store
 * keeps its bookings in memory and only appends, so a second process on the same file would
 * hand out the same ids and never see the first one's bookings. Replicas share Redis instead.
 */

export interface StoreLock {
  release(): void;
}

/** Files locked by this process: a second store on one of them is refused like another process. */
const lockedHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(lockPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function refusal(path: string, lockPath: string, holder: string): Error {
  return new Error(
    `booking store: ${path} is in use by ${holder} (lock file ${lockPath}). A booking file serves one process; replicas share bookings through Redis (set REDIS_URL). If that process is gone, delete the lock file.`,
  );
}

/** Take the lock of the booking file at `path` (absolute), or throw saying who holds it. */
export function lockStore(path: string): StoreLock {
  const lockPath = `${path}.lock`;
  if (lockedHere.has(path)) throw refusal(path, lockPath, `this process (${process.pid})`);

  // Written in full under another name, then linked into place: link fails if the lock exists,
  // so two processes cannot both take it, and nobody reads a half-written pid.
  const draft = `${lockPath}.${process.pid}.tmp`;
  writeFileSync(draft, `${process.pid}\n`);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(draft, lockPath);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw error;
      }
      const holder = holderOf(lockPath);
      // Our own pid in a lock this process does not hold is a previous run's (pid 1 in a
      // container, every time); any other living pid holds the file.
      if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
        throw refusal(path, lockPath, `process ${holder}`);
      }
      // A lock left by a process that died without letting go: take it over. (Two processes
      // taking over the same stale lock at the same instant could both succeed; a store meant
      // for one process is not started twice at once often enough to pay for more.)
      rmSync(lockPath, { force: true });
    }
  } finally {
    rmSync(draft, { force: true });
  }
  lockedHere.add(path);

  const release = () => {
    process.off('exit', release);
    if (!lockedHere.delete(path)) return;
    if (holderOf(lockPath) === process.pid) rmSync(lockPath, { force: true });
  };
  // A process that exits without closing its store (process.exit, a signal handler) lets go too.
  process.on('exit', release);
  return { release };
}
