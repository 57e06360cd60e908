import type { Readable, Writable } from 'node:stream';

import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { isRecord } from '@parley/core';

import { replyJson } from '../modern/encode.ts';
import { errorReply, idOf, type ErrorReply } from '../modern/errorReply.ts';
import type { JsonRpcOut } from '../modern/messages.ts';
import { StdioBatches } from './stdioBatches.ts';

/**
 * MCP over stdio: one JSON-RPC message per line. A line that is not one gets its JSON-RPC error
 * (`-32700` not JSON, `-32600` not a JSON-RPC message, or too long) and the server reads on:
 * nothing a client writes can stop it, and a line too long to keep is dropped as it arrives,
 * never buffered whole. A line that is a batch is served on the revision that allows batches and
 * refused on the others (see `stdioBatches.ts`).
 */

/** The longest line kept (the HTTP body limit's default). */
const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

/** Why a parsed line is not a JSON-RPC 2.0 message, or `undefined`. */
function problemOf(value: unknown): string | undefined {
  if (!isRecord(value)) return 'a line must be a JSON-RPC 2.0 message (an object)';
  if (value.jsonrpc !== '2.0') return 'the message lacks "jsonrpc": "2.0"';
  if ('method' in value) {
    if (typeof value.method !== 'string') return 'the method must be a string';
    if (value.params !== undefined && !isRecord(value.params) && !Array.isArray(value.params)) {
      return 'params must be an object';
    }
    if ('id' in value && idOf(value) === null) return 'the id must be a string or a number';
    return undefined;
  }
  if ('result' in value || 'error' in value) {
    return 'id' in value ? undefined : 'a response needs the id of its request';
  }
  return 'the message is neither a request, a notification nor a response';
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxLineBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Dropping the rest of a line that was too long. */
  #skipping = false;
  #closed = false;
  /** The revision the session negotiated (`initialize`); batches depend on it. */
  #revision: string | undefined;
  readonly #batches = new StdioBatches();

  constructor(input: Readable, output: Writable, options: { maxLineBytes?: number } = {}) {
    this.#input = input;
    this.#output = output;
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  async start(): Promise<void> {
    this.#input.on('data', this.#onData);
    this.#input.once('end', this.#onEnd);
    this.#input.once('close', this.#onEnd);
    this.#input.on('error', this.#onInputError);
    // A reader that went away (`| head`) ends the conversation, quietly.
    this.#output.on('error', this.#onOutputError);
  }

  setProtocolVersion = (version: string): void => {
    this.#revision = version;
  };

  async send(message: JSONRPCMessage): Promise<void> {
    const batched = this.#batches.answer(message);
    if (batched === undefined) return this.#write(`${replyJson(message as JsonRpcOut)}\n`);
    if (batched.length > 0) await this.#writeBatch(batched);
  }

  /** A batch's answers, as one JSON array on one line. */
  #writeBatch(answers: JsonRpcOut[]): Promise<void> {
    return this.#write(`[${answers.map((answer) => replyJson(answer)).join(',')}]\n`);
  }

  async #write(line: string): Promise<void> {
    if (this.#closed) return;
    // As over HTTP: an asking round's sealed state is written in as it is, not scanned.
    if (!this.#output.write(line)) {
      await new Promise<void>((resolve) => {
        const go = () => {
          this.#output.off('drain', go);
          this.#output.off('close', go);
          resolve();
        };
        this.#output.once('drain', go);
        this.#output.once('close', go);
      });
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('end', this.#onEnd);
    this.#input.off('close', this.#onEnd);
    this.#input.off('error', this.#onInputError);
    this.#input.pause();
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (;;) {
      const newline = bytes.indexOf(0x0a);
      if (newline < 0) {
        this.#hold(bytes);
        return;
      }
      this.#hold(bytes.subarray(0, newline));
      this.#endLine();
      bytes = bytes.subarray(newline + 1);
    }
  };

  #hold(bytes: Buffer): void {
    if (this.#skipping || bytes.length === 0) return;
    if (this.#pendingBytes + bytes.length > this.#maxLineBytes) {
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#skipping = true;
      return;
    }
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
  }

  #endLine(): void {
    if (this.#skipping) {
      this.#skipping = false;
      this.#refuse(
        errorReply(
          'invalidRequest',
          `Invalid Request: a line may be at most ${this.#maxLineBytes} bytes`,
        ),
      );
      return;
    }
    const line = Buffer.concat(this.#pending, this.#pendingBytes)
      .toString('utf8')
      .replace(/\r$/, '');
    this.#pending = [];
    this.#pendingBytes = 0;
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.#refuse(errorReply('parseError', 'Parse error: the line is not JSON'));
      return;
    }
    if (Array.isArray(message)) {
      this.#takeBatch(message);
      return;
    }
    const problem = problemOf(message);
    if (problem !== undefined) {
      // A response or a notification is not answered, even when it is wrong.
      if (isRecord(message) && typeof message.method === 'string' && !('id' in message)) return;
      this.#refuse(
        errorReply('invalidRequest', `Invalid Request: ${problem}`, { id: idOf(message) }),
      );
      return;
    }
    this.#deliver(message);
  }

  #takeBatch(entries: unknown[]): void {
    const intake = this.#batches.take(entries, this.#revision, problemOf);
    if ('refused' in intake) {
      void this.#write(`${replyJson(intake.refused)}\n`);
      return;
    }
    for (const message of intake.messages) this.#deliver(message);
    if (intake.done && intake.answers.length > 0) void this.#writeBatch(intake.answers);
  }

  #deliver(message: unknown): void {
    // A cancelled request is not answered: its batch stops waiting for it.
    const settled = this.#batches.cancelled(message);
    if (settled !== undefined && settled.length > 0) void this.#writeBatch(settled);
    try {
      this.onmessage?.(message as JSONRPCMessage);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Written alone, never held for a batch (even with the id of a batched request). */
  #refuse(reply: ErrorReply): void {
    void this.#write(`${replyJson(reply.message)}\n`);
  }

  readonly #onEnd = (): void => {
    void this.close();
  };

  readonly #onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onOutputError = (): void => {
    if (this.#closed) return;
    void this.close();
  };
}
