import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';
import { Client, type RoundEvent } from '@parley/client';

import { downstreamClient } from './helpers/downstream.ts';
import { startSdkModernServer } from './helpers/sdkModernHttp.ts';
import { useParleyUpstream } from './helpers/parleyUpstream.ts';
import { NODE_FROM_SOURCE, repoRoot } from './helpers/stdioUpstream.ts';

/**
 * `parley proxy` as a real child process, as a host would run it: over stdio (the host's
 * `command` config) and over HTTP (`--port`), in front of a modern-only upstream.
 */

const PARLEY = fileURLToPath(new URL('../../cli/src/main.ts', import.meta.url));

function parleyArgs(...args: string[]): string[] {
  return [...NODE_FROM_SOURCE, PARLEY, 'proxy', ...args];
}

/** Start `parley proxy … --port 0` and wait for the URL it prints on stderr. */
async function startHttpProxy(upstream: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, parleyArgs(upstream, '--mode', 'modern', '--port', '0'), {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in time; stderr: ${stderr}`)), 25_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /served at (http:\/\/\S+)/.exec(stderr)?.[1];
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${String(code)}: ${stderr}`)));
  });
  return { url, child };
}

describe('parley proxy', () => {
  const { url: upstreamUrl } = useParleyUpstream();

  it('over stdio: a handshake-era host in front of a modern-only upstream', async () => {
    // The raw SDK's modern-only server: a handshake-era client alone could not use it at all.
    const modernOnly = await startSdkModernServer();
    const rounds: RoundEvent[] = [];
    const stdio = new Client(
      {
        command: process.execPath,
        args: parleyArgs(modernOnly.url),
        cwd: repoRoot,
        stderr: 'ignore',
      },
      {
        mode: 'handshake',
        elicitationHandler: (message) => ({ name: message === 'Where to?' ? 'Lisbon' : 'Friday' }),
        onRound: (event) => rounds.push(event),
      },
    );
    await stdio.connect();
    expect(stdio.era).toBe('handshake');
    const result = await stdio.callTool('book_trip');
    expect(result.content).toEqual([{ type: 'text', text: 'Trip to Lisbon on Friday' }]);
    // Two pushed requests downstream; upstream, three modern rounds the proxy drove.
    expect(rounds.map((round) => round.era)).toEqual(['handshake', 'handshake']);
    expect(modernOnly.entries['book_trip']).toBe(3);
    await stdio.close();
    await modernOnly.close();
  });

  it('over HTTP (--port): a modern client, and the URL printed on stderr', async () => {
    const { url, child } = await startHttpProxy(upstreamUrl());
    try {
      const { client, messages } = downstreamClient(url, 'modern');
      await client.connect();
      const result = await client.callTool('greet');
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      expect(messages).toEqual(['Your name?']);
      await client.close();
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  });
});

describe('parley proxy in front of nothing', () => {
  it('an upstream that is not listening: the sentence every parley command says, exit 1', async () => {
    // A port that was just free: nothing listens there.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const upstream = `http://127.0.0.1:${closed}/mcp`;
    const child = spawn(process.execPath, parleyArgs(upstream), {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toBe(
      `parley proxy: cannot start in front of ${upstream}: Nothing is listening at ${upstream}: ` +
        `is the server running, and on port ${closed}?\n`,
    );
  });
});
