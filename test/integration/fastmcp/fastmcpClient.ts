/**
 * FastMCP's Python client (python/client.py) as one long-lived child process per connection,
 * driven over its stdin/stdout: each command is a call plus the queue of answers its
 * elicitation handler gives; each reply is the result (or error) and what the handler was asked.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { pythonDir } from './pythonPeer.ts';

export type PythonAnswer =
  | { value: unknown }
  | { fields: Record<string, unknown> }
  | { raw: Record<string, unknown> }
  | { action: 'accept' | 'decline' | 'cancel' };

export interface Asked {
  message: string;
  /** Whether FastMCP built a response type from the schema (false for an empty form, or URL). */
  typed: boolean;
  schema?: Record<string, unknown>;
  url?: string;
}

export type Reply =
  | { ok: true; result: Record<string, unknown>; asked: Asked[] }
  | { ok: false; error: string; type: string; asked: Asked[] };

export interface Command {
  op: 'call_tool' | 'get_prompt' | 'read_resource';
  name: string;
  answers?: PythonAnswer[];
}

export class FastmcpClient {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: Reply) => void>();
  private stderr = '';

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly protocolVersion: string,
  ) {}

  /** `target`: a URL, or `{ command, args }` FastMCP starts over stdio. `mode`: FastMCP's. */
  static start(
    python: string,
    target: string | { command: string; args: string[] },
    mode: 'legacy' | '2026-07-28',
  ): Promise<FastmcpClient> {
    const args =
      typeof target === 'string' ? [target, mode] : ['stdio', mode, target.command, ...target.args];
    // -B: no __pycache__ written into the repository.
    const child = spawn(python, ['-B', join(pythonDir, 'client.py'), ...args], { stdio: 'pipe' });
    return new Promise((resolve, reject) => {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => reject(new Error(`client.py exited (${code}):\n${stderr}`)));
      const lines = createInterface({ input: child.stdout });
      let client: FastmcpClient | undefined;
      lines.on('line', (line) => {
        const message = JSON.parse(line) as { ready?: true; protocol: string; id?: number };
        if (client === undefined) {
          client = new FastmcpClient(child, message.protocol);
          client.stderr = stderr;
          child.stderr.on('data', (chunk: Buffer) => (client!.stderr += chunk.toString()));
          resolve(client);
          return;
        }
        client.waiting.get(message.id!)?.(message as unknown as Reply);
        client.waiting.delete(message.id!);
      });
    });
  }

  send(command: Command): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ id, ...command })}\n`, (error) => {
        if (error) reject(new Error(`client.py: ${error.message}\n${this.stderr}`));
      });
    });
  }

  /** A call that must succeed: its result, or an error carrying what went wrong. */
  async ok(command: Command): Promise<{ result: Record<string, unknown>; asked: Asked[] }> {
    const reply = await this.send(command);
    if (!reply.ok) throw new Error(`${command.op} ${command.name}: ${reply.type}: ${reply.error}`);
    return reply;
  }

  close(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
      setTimeout(() => this.child.kill('SIGTERM'), 5_000).unref();
    });
  }
}
