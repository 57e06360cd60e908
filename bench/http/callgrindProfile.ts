/**
 * A callgrind dump read back as instructions per function, V8's compiled JavaScript included:
 * callgrind sees JIT code only as addresses, and `node --perf-basic-prof` writes where each
 * function's code lies (`/tmp/perf-<pid>.map`), so every instruction is put to the function it
 * ran in. Self cost only (what ran in the function itself), by name.
 */
import { readFileSync } from 'node:fs';

type Range = [start: number, size: number, name: string];

function perfMap(file: string): Range[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line): Range => {
      const [start, size, ...name] = line.split(' ');
      return [Number.parseInt(start!, 16), Number.parseInt(size!, 16), name.join(' ')];
    })
    .sort((a, b) => a[0] - b[0]);
}

function nameAt(ranges: Range[], address: number): string | undefined {
  let low = 0;
  let high = ranges.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ranges[middle]![0] <= address) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  const range = ranges[found];
  return range !== undefined && address < range[0] + range[1] ? range[2] : undefined;
}

/** A readable name: the build's hashed chunk names and absolute paths left out. */
function shortName(name: string): string {
  return name
    .replace(/^JS:[*~^]?/, 'JS ')
    .replace(/file:\/\/\/.*?\/(packages|bench)\//, '')
    .replace(/-[A-Za-z0-9_]{8}\.(mjs|cjs):\d+:\d+/, '')
    .replace(/\(v8::internal::.*$/, '');
}

/**
 * Self instructions by function, from a dump made with `--dump-instr=yes` of a process that ran
 * with `--perf-basic-prof`.
 */
export function selfCosts(dumpFile: string, perfMapFile: string): Map<string, number> {
  const ranges = perfMap(perfMapFile);
  const names = new Map<string, string>();
  const costs = new Map<string, number>();
  const add = (name: string, cost: number) => costs.set(name, (costs.get(name) ?? 0) + cost);
  const fnName = (text: string): string => {
    const match = /^\((\d+)\)(?: (.*))?$/.exec(text);
    if (match === null) return text;
    if (match[2] !== undefined) names.set(match[1]!, match[2]);
    return names.get(match[1]!) ?? match[1]!;
  };
  let fn = '';
  let address = 0;
  let callCost = false;
  for (const line of readFileSync(dumpFile, 'utf8').split('\n')) {
    if (line.startsWith('fn=')) fn = fnName(line.slice(3));
    else if (line.startsWith('cfn=')) fnName(line.slice(4));
    else if (line.startsWith('calls=')) callCost = true;
    else if (/^(0x|\+|-|\*)/.test(line)) {
      const [position, , cost] = line.split(' ');
      if (position!.startsWith('0x')) address = Number.parseInt(position!, 16);
      else if (position![0] === '+') address += Number(position!.slice(1));
      else if (position![0] === '-') address -= Number(position!.slice(1));
      // The line after `calls=` is what the call cost, counted in the callee already.
      if (callCost) {
        callCost = false;
        continue;
      }
      const instructions = Number(cost ?? 0);
      if (instructions === 0) continue;
      const jit = /^0x[0-9a-f]+$/.test(fn);
      add(
        shortName(jit ? (nameAt(ranges, address) ?? '(JIT code without a name)') : fn),
        instructions,
      );
    }
  }
  return costs;
}
