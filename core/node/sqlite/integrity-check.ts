import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

/** What `PRAGMA quick_check` said about an index, or why it could not be asked. */
export type CheckVerdict =
  | { kind: 'ok' }
  /** The check ran and found damage, or SQLite refused the file as corrupt or not a database. */
  | { kind: 'corrupt'; detail: string }
  /** The check could not run in the background (no worker, a lock, a timeout): ask in-thread instead. */
  | { kind: 'unknown'; detail: string };

/**
 * The worker's whole program, plain JavaScript so that it runs the same under every loader (the
 * CLI's, the tests', the desktop bundle's). It opens the index read-only on its own connection, runs
 * the full `PRAGMA quick_check`, and raises a shared flag so that the opening thread can block on
 * the answer without an event loop turn.
 */
const WORKER_SOURCE = `
'use strict';
const { workerData } = require('node:worker_threads');
const { path, sqlite, binding, flag, port } = workerData;
let message;
try {
  const Database = require(sqlite);
  const options = { readonly: true, fileMustExist: true };
  if (binding) options.nativeBinding = binding;
  const db = new Database(path, options);
  try {
    db.pragma('busy_timeout = 5000');
    const rows = db.pragma('quick_check');
    message = { ran: true, verdict: rows.map((row) => row.quick_check).join('; ') };
  } finally {
    db.close();
  }
} catch (error) {
  message = { ran: false, code: String((error && error.code) || ''), detail: String((error && error.message) || error) };
}
port.postMessage(message);
const state = new Int32Array(flag);
Atomics.store(state, 0, 1);
Atomics.notify(state, 0);
`;

/** SQLite's own words for a damaged file (as opposed to a lock, a permission or a missing module). */
const CORRUPTION_CODES = /^SQLITE_(CORRUPT|NOTADB)/;

/** Longest the opening thread waits for the background check before asking in-thread. */
const WAIT_LIMIT_MS = 120_000;

type WorkerMessage = { ran: true; verdict: string } | { ran: false; code: string; detail: string };

/**
 * `PRAGMA quick_check` of an index file, running on a worker thread while the caller does other
 * work (walking the folder). Most of the check's time goes to the full-text index, and the walk
 * needs no database, so the two overlap instead of adding up. `wait()` blocks until the verdict is
 * in; nothing read from the index may be trusted before it says `ok`.
 */
export class BackgroundCheck {
  private verdict: CheckVerdict | null = null;

  private constructor(
    private readonly worker: Worker | null,
    private readonly port: MessagePort | null,
    private readonly flag: Int32Array,
    startError: string | null,
  ) {
    if (startError !== null) this.verdict = { kind: 'unknown', detail: startError };
  }

  static start(path: string, nativeBinding: string | undefined): BackgroundCheck {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    let channel: MessageChannel | null = null;
    try {
      channel = new MessageChannel();
      const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { path, sqlite, binding: nativeBinding ?? null, flag: flag.buffer, port: channel.port2 },
        transferList: [channel.port2],
        // The check's own thread must never keep a short command alive.
        stdout: false,
        stderr: false,
      });
      worker.unref();
      // A worker that fails outside its own try (it cannot load at all) must not crash the process;
      // the waiting side then times out into the in-thread check.
      worker.on('error', () => {});
      return new BackgroundCheck(worker, channel.port1, flag, null);
    } catch (error) {
      channel?.port1.close();
      return new BackgroundCheck(null, null, flag, error instanceof Error ? error.message : String(error));
    }
  }

  /** True once the verdict is in (without blocking). */
  get settled(): boolean {
    return this.verdict !== null || Atomics.load(this.flag, 0) === 1;
  }

  /** Blocks until the background check has answered (or gave up), then returns its verdict. */
  wait(limitMs: number = WAIT_LIMIT_MS): CheckVerdict {
    if (this.verdict) return this.verdict;
    const result = Atomics.wait(this.flag, 0, 0, limitMs);
    const received = result === 'timed-out' ? undefined : this.port ? receiveMessageOnPort(this.port) : undefined;
    const message = received?.message as WorkerMessage | undefined;
    if (!message) this.verdict = { kind: 'unknown', detail: `no answer from the background check (${result})` };
    else if (message.ran)
      this.verdict = message.verdict === 'ok' ? { kind: 'ok' } : { kind: 'corrupt', detail: message.verdict };
    else if (CORRUPTION_CODES.test(message.code)) this.verdict = { kind: 'corrupt', detail: message.detail };
    else this.verdict = { kind: 'unknown', detail: message.detail };
    this.stop();
    return this.verdict;
  }

  /** Stops the worker (used when the index is closed before anyone asked for the verdict). */
  stop(): void {
    this.port?.close();
    void this.worker?.terminate();
  }
}
