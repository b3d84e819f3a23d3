import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { runStatJob, type StatJob } from '../fs/shared-stats';

/** What `PRAGMA quick_check` said about an index, or why it could not be asked. */
export type CheckVerdict =
  | { kind: 'ok' }
  /** The check ran and found damage, or SQLite refused the file as corrupt or not a database. */
  | { kind: 'corrupt'; detail: string }
  /** The check could not run in the background (no worker, a lock, a timeout): ask in-thread instead. */
  | { kind: 'unknown'; detail: string };

/**
 * The worker's whole program, plain JavaScript so that it runs the same under every loader (the
 * CLI's, the tests', the desktop bundle's). It opens the index read-only on its own connection and
 * answers twice, raising a shared flag each time so that the opening thread can block on an answer
 * without an event loop turn:
 *  - `core`: `PRAGMA quick_check(T)` of every ordinary table T, each with its indexes. The full-text
 *    index's shadow tables are among them as B-trees, so this is everything but the full-text index's
 *    own consistency check and the file's page accounting, in a fifth of the time.
 *  - `full`: the whole `PRAGMA quick_check`, which adds those two (~80 % of its time is the full-text
 *    index's check). It starts once the opener says its first pass is over (`proceed`), or asks for
 *    the answer, or after `FULL_DELAY_MS`: run beside the pass, it took a core from it.
 * Before the second it takes a share of the opening walk's stats when asked (`shareStats`): the
 * walk is what a restart waits for, and this thread is the one already running.
 */
function workerSource(): string {
  return `
'use strict';
// Some TypeScript loaders wrap named functions in a helper of this name.
const __name = (target) => target;
const { workerData, receiveMessageOnPort } = require('node:worker_threads');
const { lstatSync } = require('node:fs');
const { path, sqlite, binding, flag, port, fullDelayMs } = workerData;
const state = new Int32Array(flag);
const runStatJob = (${runStatJob.toString()});
// Lends a hand with the opening walk's stats once they are posted (see \`shareStats\`): the walk
// starts while the tables are checked, and waits on its stats, so they come first.
let helped = false;
const help = () => {
  if (helped || Atomics.load(state, ${JOB_CELL}) === 0) return;
  helped = true;
  const received = receiveMessageOnPort(port);
  if (!received) return;
  try {
    runStatJob(lstatSync, received.message);
  } catch {
    // The opening thread stats whatever this thread does not finish.
  }
};
const answer = (cell, message) => {
  port.postMessage(message);
  Atomics.store(state, cell, 1);
  Atomics.notify(state, cell);
};
const failed = (error) => ({ ran: false, code: String((error && error.code) || ''), detail: String((error && error.message) || error) });
const verdict = (rows) => rows.map((row) => row.quick_check).filter((line) => line !== 'ok').join('; ') || 'ok';
let db = null;
try {
  const Database = require(sqlite);
  const options = { readonly: true, fileMustExist: true };
  if (binding) options.nativeBinding = binding;
  db = new Database(path, options);
  db.pragma('busy_timeout = 5000');
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
    .pluck()
    .all();
  const rows = [];
  for (const name of tables) {
    help();
    rows.push(...db.pragma("quick_check('" + name.replaceAll("'", "''") + "')"));
  }
  answer(0, { phase: 'core', ran: true, verdict: verdict(rows) });
} catch (error) {
  answer(0, { phase: 'core', ...failed(error) });
}
// A walk that has not started yet may still post its stats; the opening thread says when it will not.
Atomics.wait(state, ${JOB_CELL}, 0, ${JOB_WAIT_MS});
help();
// The rest is most of the check's work. It waits until the opening pass is over, or someone needs
// its answer, or a while has passed, so that it never competes with the pass for the processor;
// and a check stopped meanwhile (the index was closed) ends here without starting it.
Atomics.wait(state, ${GO_CELL}, 0, fullDelayMs);
if (Atomics.load(state, ${GO_CELL}) === ${STOP}) {
  if (db) db.close();
} else {
  try {
    if (!db) throw new Error('the index could not be opened for its check');
    answer(1, { phase: 'full', ran: true, verdict: verdict(db.pragma('quick_check')) });
  } catch (error) {
    answer(1, { phase: 'full', ...failed(error) });
  } finally {
    if (db) db.close();
  }
}
`;
}

/** SQLite's own words for a damaged file (as opposed to a lock, a permission or a missing module). */
const CORRUPTION_CODES = /^SQLITE_(CORRUPT|NOTADB)/;

/** Longest the opening thread waits for the background check before asking in-thread. */
const WAIT_LIMIT_MS = 120_000;

type WorkerMessage = { phase: Phase } & ({ ran: true; verdict: string } | { ran: false; code: string; detail: string });

/**
 * The two answers of one check: `core` (every ordinary table and its indexes) and `full` (the whole
 * `quick_check`, which adds the full-text index and the page accounting).
 */
export type Phase = 'core' | 'full';
const CELL: Record<Phase, number> = { core: 0, full: 1 };
/** The cell that tells the worker a stat job was posted. */
const JOB_CELL = 2;
/** The cell that lets the worker go on with the rest of the check (`GO`) or tells it to end (`STOP`). */
const GO_CELL = 3;
const GO = 1;
const STOP = 2;
/** How long the rest of the check waits for the word to go on before it goes on anyway. */
const FULL_DELAY_MS = 1_000;
/** How long the worker waits after its first answer for the opening walk's stats (then checks on). */
const JOB_WAIT_MS = 250;

/**
 * `PRAGMA quick_check` of an index file, running on a worker thread while the caller does other
 * work (walking the folder). It answers in two phases: `core` soon (the tables a restart reads),
 * `full` later (the whole check, most of whose time goes to the full-text index). `wait(phase)`
 * blocks until that answer is in; nothing read from the index may be trusted before `core` says
 * `ok`, and nothing in the full-text index before `full` does.
 */
export class BackgroundCheck {
  private readonly verdicts: Partial<Record<Phase, CheckVerdict>> = {};
  private readonly inbox: Partial<Record<Phase, WorkerMessage>> = {};
  private stopped = false;

  private constructor(
    private readonly worker: Worker | null,
    private readonly port: MessagePort | null,
    private readonly flag: Int32Array,
    startError: string | null,
  ) {
    if (startError !== null) {
      const verdict: CheckVerdict = { kind: 'unknown', detail: startError };
      this.verdicts.core = verdict;
      this.verdicts.full = verdict;
    }
  }

  static start(
    path: string,
    nativeBinding: string | undefined,
    options: { fullDelayMs?: number } = {},
  ): BackgroundCheck {
    const flag = new Int32Array(new SharedArrayBuffer(16));
    let channel: MessageChannel | null = null;
    try {
      channel = new MessageChannel();
      const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
      const worker = new Worker(workerSource(), {
        eval: true,
        workerData: {
          path,
          sqlite,
          binding: nativeBinding ?? null,
          flag: flag.buffer,
          port: channel.port2,
          fullDelayMs: options.fullDelayMs ?? FULL_DELAY_MS,
        },
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

  /**
   * Hands the worker a share of the opening walk's stats (see `shared-stats.ts`). It takes them up
   * between its two answers; if it is past that point, the walk simply stats everything itself.
   */
  shareStats(job: StatJob): void {
    if (this.stopped || !this.port || Atomics.load(this.flag, JOB_CELL) !== 0) return;
    this.port.postMessage(job);
    this.signal(1);
  }

  /** Tells the worker no stats are coming, so that it goes on with the rest of the check. */
  private noStats(): void {
    if (Atomics.load(this.flag, JOB_CELL) === 0) this.signal(2);
  }

  private signal(value: number, cell = JOB_CELL): void {
    Atomics.store(this.flag, cell, value);
    Atomics.notify(this.flag, cell);
  }

  /**
   * Lets the rest of the check (the full-text index) start now: the opening pass is over, or its
   * answer is needed. Until then it waits, for at most `FULL_DELAY_MS`.
   */
  proceed(): void {
    if (Atomics.load(this.flag, GO_CELL) === 0) this.signal(GO, GO_CELL);
  }

  /** True once the answer of `phase` is in (without blocking). */
  settled(phase: Phase = 'full'): boolean {
    return this.verdicts[phase] !== undefined || Atomics.load(this.flag, CELL[phase]) === 1;
  }

  /** Blocks until the answer of `phase` is in (or the check gave up), then returns it. */
  wait(phase: Phase = 'full', limitMs: number = WAIT_LIMIT_MS): CheckVerdict {
    const known = this.verdicts[phase];
    if (known) return known;
    // Whoever waits for an answer has walked already, or never will.
    this.noStats();
    if (phase === 'full') this.proceed();
    // A stopped check will not answer any more: only what already came counts.
    const result = this.stopped ? 'stopped' : Atomics.wait(this.flag, CELL[phase], 0, limitMs);
    if (result !== 'timed-out') this.drain();
    const message = this.inbox[phase];
    let verdict: CheckVerdict;
    if (!message) verdict = { kind: 'unknown', detail: `no answer from the background check (${result})` };
    else if (message.ran)
      verdict = message.verdict === 'ok' ? { kind: 'ok' } : { kind: 'corrupt', detail: message.verdict };
    else if (CORRUPTION_CODES.test(message.code)) verdict = { kind: 'corrupt', detail: message.detail };
    else verdict = { kind: 'unknown', detail: message.detail };
    this.verdicts[phase] = verdict;
    // Nothing more to hear once the whole check has answered, or once the first answer was bad.
    if (phase === 'full' || verdict.kind !== 'ok') this.stop();
    return verdict;
  }

  private drain(): void {
    if (!this.port || this.stopped) return;
    for (let received = receiveMessageOnPort(this.port); received; received = receiveMessageOnPort(this.port)) {
      const message = received.message as WorkerMessage;
      this.inbox[message.phase] = message;
    }
  }

  /** Stops the worker (the index was closed before anyone asked for the verdict). */
  stop(): void {
    if (this.stopped) return;
    this.drain();
    this.stopped = true;
    // A worker waiting to go on ends by itself; one inside a check ends when the check returns.
    if (Atomics.load(this.flag, GO_CELL) === 0) this.signal(STOP, GO_CELL);
    this.port?.close();
    void this.worker?.terminate();
  }
}
