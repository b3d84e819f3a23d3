import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import matter from 'gray-matter';
import {
  compareIndexEntries,
  createIndexRenderer,
  INDEX_MARKER,
  type IndexEntry,
  renderIndex,
} from '../../idea/index-md';
import { classifyPath, IDEAS_DIR, isTransientName, MARKDOWN_KINDS, MAX_MARKDOWN_BYTES } from '../../idea/layout';
import type { FolderSnapshot } from '../../sync/types';
import { parseMarkdownWith } from '../markdown';
import { describeReadError, entryRule } from './entry-rule';
import { type PackedFolder, packFolders, unpackFolders } from './pack-folders';
import { createFolderReader, type ReadTask, readFolders } from './read-folder';

/** Below this many folders a pass reads them itself: handing out work costs more than it saves. */
const MIN_FOLDERS_FOR_WORKERS = 600;
/** How many batches a worker may read ahead of the batch the pass is writing (bounds memory). */
const AHEAD = 6;
/** A batch a worker took but did not deliver within this long is read here instead. */
const BATCH_TIMEOUT_MS = 30_000;
/** Threads are kept this long after a pass, so that a burst of large passes starts warm. */
const IDLE_MS = 2_000;

const FREE = 0;
const TAKEN_BY_WORKER = 1;
const TAKEN_HERE = 2;
const DELIVERED = 3;
/** Shared cells of one pass: [0] the batch the pass is at, [1] stop, then one state cell per batch. */
const POSITION = 0;
const STOP = 1;
const FIRST_BATCH = 2;

/** Paths whose classification a worker must reproduce before it may read anything. */
const PROBES = [
  'ideas/a/README.md',
  'ideas/a/readme.MD',
  'ideas/a/development.md',
  'ideas/a/research/x.md',
  'ideas/a/notes/y.md',
  'ideas/a/assets/p.png',
  'ideas/a/debates/d.jsonl',
  'ideas/a/x.conflict-20260101T000000Z.md',
  'ideas/a/synthesis.md',
  'ideas/a/.swp',
  'ideas/_index.md',
  'ideas/a/notes/#tmp#',
];
const SAMPLE = '---\ntitle: "Probe"\ntags: [a, b]\ncreated: 2026-01-02\n---\n# Probe\n\nText.\n';
/** Entries whose `_index.md` a worker must render exactly as this thread does before it renders any. */
const SAMPLE_ENTRIES: IndexEntry[] = [
  {
    slug: 'b',
    title: 'Émile | two  spaces',
    type: null,
    stage: 'SPARK',
    tags: ['x', 'y'],
    updated: null,
    overallScore: 7.25,
    stale: true,
  },
  {
    slug: 'a',
    title: 'émile 🙂',
    type: 'product',
    stage: 'ABANDONED',
    tags: [],
    updated: '2026-01-02',
    overallScore: null,
    stale: false,
  },
  {
    slug: 'c d',
    title: 'Zed\ttab',
    type: 'research',
    stage: 'SPARK',
    tags: ['a|b'],
    updated: '2026-01-03',
    overallScore: 3,
    stale: false,
  },
];

/**
 * The worker's program: the reader's own source (`createFolderReader` and the few functions it is
 * handed), so that a worker reads exactly as this thread does. The functions are embedded by their
 * source text under the names their bodies use; before reading anything the worker classifies
 * `PROBES` and parses a sample, and declines all work unless it agrees with this thread (a bundler
 * that renamed something, say). Within a pass, batches are claimed through shared memory, so the
 * pass, which is synchronous, never needs its event loop to hand out work. Read folders go back
 * packed (`packFolders`, embedded the same way). The worker also renders `_index.md` for a first
 * sync (`renderIndexAside`) with `createIndexRenderer`'s source, once it has rendered sample
 * entries exactly as this thread does.
 */
function workerSource(): string {
  return `
'use strict';
// Some TypeScript loaders wrap named functions in a helper of this name.
const __name = (target) => target;
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const crypto = require('node:crypto');
const { grayMatter, probes, expected, sample } = workerData;
const matter = require(grayMatter);
const IDEAS_DIR = ${JSON.stringify(IDEAS_DIR)};
const isTransientName = (${isTransientName.toString()});
const classifyPath = (${classifyPath.toString()});
const entryRule = (${entryRule.toString()});
const describeReadError = (${describeReadError.toString()});
const parseMarkdownWith = (${parseMarkdownWith.toString()});
const createFolderReader = (${createFolderReader.toString()});
const packFolders = (${packFolders.toString()});
const createIndexRenderer = (${createIndexRenderer.toString()});
const sha256 = typeof crypto.hash === 'function'
  ? (bytes) => crypto.hash('sha256', bytes)
  : (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');
let readFolders = null;
let declined = null;
try {
  readFolders = createFolderReader({
    fs,
    sha256,
    parse: (raw) => parseMarkdownWith(matter, raw),
    classifyPath,
    isTransientName,
    entryRule,
    describeReadError,
    ideasDir: IDEAS_DIR,
    markdownKinds: new Set(${JSON.stringify([...MARKDOWN_KINDS])}),
    maxMarkdownBytes: ${MAX_MARKDOWN_BYTES},
  });
  const agrees = JSON.stringify(probes.map((p) => classifyPath(p))) === expected.classified
    && JSON.stringify(parseMarkdownWith(matter, sample)) === expected.parsed;
  if (!agrees) declined = 'the worker reads differently from the main thread';
} catch (error) {
  declined = String((error && error.stack) || error);
}
let indexRenderer = null;
try {
  indexRenderer = createIndexRenderer(${JSON.stringify(INDEX_MARKER)});
  if (indexRenderer.render(workerData.sampleEntries.slice().sort(indexRenderer.compare)) !== expected.rendered) {
    indexRenderer = null;
  }
} catch {
  indexRenderer = null;
}

function renderIndexJob({ entries, shared, port }) {
  let message;
  if (indexRenderer === null) message = { declined: 'the worker renders differently from the main thread' };
  else {
    try {
      message = { text: indexRenderer.render(entries.sort(indexRenderer.compare)) };
    } catch (error) {
      message = { declined: String((error && error.stack) || error) };
    }
  }
  port.postMessage(message);
  port.close();
  const done = new Int32Array(shared);
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
}

function runPass({ root, slugs, files, batchSize, trustBefore, shared, port }) {
  const state = new Int32Array(shared);
  if (declined !== null) {
    port.postMessage({ declined });
    port.close();
    return;
  }
  const batches = Math.ceil(slugs.length / batchSize);
  for (let b = 0; b < batches; b++) {
    for (;;) {
      if (Atomics.load(state, ${STOP}) !== 0) return port.close();
      const at = Atomics.load(state, ${POSITION});
      if (b < at + ${AHEAD}) break;
      Atomics.wait(state, ${POSITION}, at, 200);
    }
    if (Atomics.compareExchange(state, ${FIRST_BATCH} + b, ${FREE}, ${TAKEN_BY_WORKER}) !== ${FREE}) continue;
    let message;
    try {
      const tasks = [];
      const end = Math.min(slugs.length, (b + 1) * batchSize);
      for (let i = b * batchSize; i < end; i++) tasks.push({ slug: slugs[i], files: files ? files[i] : null });
      message = { batch: b, result: packFolders(readFolders(root, tasks, trustBefore)) };
    } catch (error) {
      message = { batch: b, failed: String((error && error.stack) || error) };
    }
    port.postMessage(message);
    Atomics.store(state, ${FIRST_BATCH} + b, ${DELIVERED});
    Atomics.notify(state, ${FIRST_BATCH} + b);
  }
  port.close();
}
parentPort.on('message', (job) => (job.entries ? renderIndexJob(job) : runPass(job)));
`;
}

type WorkerMessage =
  | { batch: number; result: PackedFolder[] }
  | { batch: number; failed: string }
  | { declined: string };

/**
 * Worker threads that read idea folders for large passes. They start with the first large pass
 * and stay (unref'd, never keeping the process alive) until they have been idle for `IDLE_MS`.
 */
class ReaderThreads {
  private workers: Worker[] = [];
  private idleTimer: NodeJS.Timeout | null = null;

  /** The live workers, started if there are none (unless `start` is false). */
  acquire(start = true): Worker[] {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.workers.length > 0 || !start) return this.workers;
    const count = Math.max(1, Math.min(availableParallelism() - 1, 3));
    const grayMatter = createRequire(import.meta.url).resolve('gray-matter');
    const expected = {
      classified: JSON.stringify(PROBES.map((p) => classifyPath(p))),
      parsed: JSON.stringify(parseMarkdownWith(matter, SAMPLE)),
      rendered: renderIndex([...SAMPLE_ENTRIES].sort(compareIndexEntries)),
    };
    const source = workerSource();
    for (let i = 0; i < count; i++) {
      const worker = new Worker(source, {
        eval: true,
        workerData: { grayMatter, probes: PROBES, expected, sample: SAMPLE, sampleEntries: SAMPLE_ENTRIES },
        stdout: false,
        stderr: false,
      });
      worker.unref();
      worker.on('error', () => {});
      worker.on('exit', () => {
        this.workers = this.workers.filter((w) => w !== worker);
      });
      this.workers.push(worker);
    }
    return this.workers;
  }

  release(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      const workers = this.workers;
      this.workers = [];
      for (const worker of workers) void worker.terminate();
    }, IDLE_MS);
    this.idleTimer.unref();
  }
}

const threads = new ReaderThreads();

/**
 * Reads idea folders in batches, in order, with worker threads reading ahead: the pass consumes
 * batch after batch (planning and writing them) while the workers parse the next ones. A batch no
 * worker has taken is read by the pass itself, so nothing waits for a slow or absent worker, and a
 * worker that fails or declines only means this thread reads more. `trustBefore` is handed to the
 * reader (folders walked while read describe their listings).
 */
export function readInOrder(
  root: string,
  tasks: readonly ReadTask[],
  batchSize: number,
  consume: (folders: FolderSnapshot[]) => void,
  options: {
    minFolders?: number;
    trustBefore?: number;
    /** Work the pass can do while a worker finishes the batch it waits for; true while some is left. */
    idle?: () => boolean;
  } = {},
): { workers: number; byWorkers: number; stolen: number } {
  const { trustBefore } = options;
  const batches = Math.ceil(tasks.length / batchSize);
  const batchOf = (b: number) => tasks.slice(b * batchSize, (b + 1) * batchSize);
  const here = (b: number) => readFolders(root, batchOf(b), trustBefore);
  const pass =
    tasks.length >= (options.minFolders ?? MIN_FOLDERS_FOR_WORKERS)
      ? PooledPass.start({ root, tasks, batchSize, trustBefore }, batches, here)
      : null;
  try {
    for (let b = 0; b < batches; b++) {
      const ready = pass?.take(b, options.idle) ?? null;
      consume(ready ?? here(b));
    }
  } finally {
    pass?.finish();
  }
  return { workers: pass?.size ?? 0, byWorkers: pass?.byWorkers ?? 0, stolen: pass?.stolenCount ?? 0 };
}

/** Below this many ideas `_index.md` is rendered where it is written: handing it over costs more. */
const MIN_ENTRIES_ASIDE = 600;
/** How long the text of `_index.md` may take on a reader thread before it is rendered here instead. */
const RENDER_TIMEOUT_MS = 2_000;

/** The text of `ideas/_index.md`, and whether a reader thread rendered it. */
export interface RenderedIndex {
  text: string;
  aside: boolean;
}

/**
 * Sorts `entries` into the index's order and renders `ideas/_index.md` on a reader thread that a
 * large pass has left idle, so that the rendering (~50 ms at 10,000 ideas) overlaps what the pass
 * still does on this thread (its last indexes and the commit). Returns the function that gives the
 * text: the thread's answer, or the text rendered here when no live thread could take the job
 * (none left, one that renders differently, no answer in time). `entries` is not changed.
 */
export function renderIndexAside(entries: readonly IndexEntry[]): () => RenderedIndex {
  const here = (): RenderedIndex => ({ text: renderIndex([...entries].sort(compareIndexEntries)), aside: false });
  if (entries.length < MIN_ENTRIES_ASIDE) return here;
  const worker = threads.acquire(false)[0];
  if (!worker) return here;
  const done = new Int32Array(new SharedArrayBuffer(4));
  const channel = new MessageChannel();
  try {
    worker.postMessage({ entries, shared: done.buffer, port: channel.port2 }, [channel.port2]);
  } catch {
    channel.port1.close();
    return here;
  } finally {
    // The thread's idle time counts from here: the job takes a fraction of it.
    threads.release();
  }
  return () => {
    Atomics.wait(done, 0, 0, RENDER_TIMEOUT_MS);
    const answer = receiveMessageOnPort(channel.port1)?.message as { text?: string } | undefined;
    channel.port1.close();
    return typeof answer?.text === 'string' ? { text: answer.text, aside: true } : here();
  };
}

/**
 * One pass's share-out of batches between this thread and the reader threads. The readers take
 * batches in order, a few ahead of the one this thread is at. When this thread would wait for one
 * of theirs with nothing else to do, it reads the next batch no one has taken instead (the readers
 * skip it when they get there): on two cores the pass is bound by whichever side is slower, and
 * this evens them out.
 */
class PooledPass {
  private readonly results = new Map<number, PackedFolder[] | null>();
  /** Batches this thread read ahead while it waited, by batch, until the pass gets to them. */
  private readonly stolen = new Map<number, FolderSnapshot[]>();
  byWorkers = 0;
  stolenCount = 0;

  private constructor(
    private readonly ports: MessagePort[],
    private readonly state: Int32Array,
    private readonly batches: number,
    private readonly readHere: (b: number) => FolderSnapshot[],
  ) {}

  get size(): number {
    return this.ports.length;
  }

  static start(
    job: { root: string; tasks: readonly ReadTask[]; batchSize: number; trustBefore: number | undefined },
    batches: number,
    readHere: (b: number) => FolderSnapshot[],
  ): PooledPass | null {
    const state = new Int32Array(new SharedArrayBuffer(4 * (FIRST_BATCH + batches)));
    // The tasks go as two plain arrays: 10,000 small objects took the worker ~10 ms to receive
    // before it could start, a list of names under 1 ms. A first sync walks every folder (no files).
    const { tasks, ...rest } = job;
    const sent = {
      ...rest,
      slugs: tasks.map((t) => t.slug),
      files: tasks.some((t) => t.files !== null) ? tasks.map((t) => t.files) : null,
    };
    const ports: MessagePort[] = [];
    try {
      for (const worker of threads.acquire()) {
        const channel = new MessageChannel();
        worker.postMessage({ ...sent, shared: state.buffer, port: channel.port2 }, [channel.port2]);
        ports.push(channel.port1);
      }
    } catch {
      Atomics.store(state, STOP, 1);
      for (const port of ports) port.close();
      threads.release();
      return null;
    }
    // This thread does not wait for a worker to take the first batch: a worker needs ~10 ms to
    // receive the job (much longer when it is just starting), and this thread would read the first
    // batch in that time anyway. (It used to wait up to 25 ms for that, and since taking a batch
    // wakes no one, it always waited all of them.)
    return new PooledPass(ports, state, batches, readHere);
  }

  /** Batch `b` done by a worker, or null when this thread should do it (and now owns it). */
  take(b: number, idle?: () => boolean): FolderSnapshot[] | null {
    Atomics.store(this.state, POSITION, b);
    Atomics.notify(this.state, POSITION);
    const early = this.stolen.get(b);
    if (early !== undefined) {
      this.stolen.delete(b);
      return early;
    }
    const cell = FIRST_BATCH + b;
    if (Atomics.compareExchange(this.state, cell, FREE, TAKEN_HERE) === FREE) return null;
    const deadline = Date.now() + BATCH_TIMEOUT_MS;
    while (Atomics.load(this.state, cell) !== DELIVERED) {
      // Deferred work of the pass fills the wait, a slice at a time, then reading ahead.
      if (idle?.() || this.steal(b)) continue;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      Atomics.wait(this.state, cell, TAKEN_BY_WORKER, left);
    }
    while (!this.results.has(b)) {
      let got = false;
      for (const port of this.ports) {
        const received = receiveMessageOnPort(port);
        if (!received) continue;
        got = true;
        const message = received.message as WorkerMessage;
        if ('batch' in message) this.results.set(message.batch, 'result' in message ? message.result : null);
      }
      // Delivered is flagged after the message is posted, so it is there; never spin on a lost one.
      if (!got) return null;
    }
    const result = this.results.get(b) ?? null;
    this.results.delete(b);
    if (result === null) return null;
    this.byWorkers++;
    return unpackFolders(result);
  }

  /**
   * Reads the first batch after `b` that no one has taken, within reach of the readers' own
   * read-ahead (so that what is read here waits in memory no longer than theirs); false when there
   * is none.
   */
  private steal(b: number): boolean {
    const end = Math.min(this.batches, b + 1 + 2 * AHEAD);
    for (let s = b + 1; s < end; s++) {
      if (Atomics.compareExchange(this.state, FIRST_BATCH + s, FREE, TAKEN_HERE) !== FREE) continue;
      this.stolen.set(s, this.readHere(s));
      this.stolenCount++;
      return true;
    }
    return false;
  }

  finish(): void {
    Atomics.store(this.state, STOP, 1);
    Atomics.notify(this.state, POSITION);
    for (const port of this.ports) port.close();
    threads.release();
  }
}
