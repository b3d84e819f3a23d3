/**
 * Sync benchmark: builds a deterministic workspace of N ideas in a temporary folder and measures
 * full syncs (cold and warm), the read-and-parse floor they are compared with, the latency from an
 * external edit to the index, and peak memory.
 *
 *   npm run bench:sync -- [--ideas N] [--runs R] [--json]
 *
 * Progress goes to stderr; stdout carries only the result (one JSON object with --json).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadTaxonomy } from '../core/node/taxonomy-loader';
import { generateWorkspace, type Vocabulary } from './lib/generate';
import { timeCold, timeEdits, timeFloor, timeWarm, warmPageCache } from './lib/measure';
import { median, round1 } from './lib/stats';

const EDITS_PER_RUN = 50;

/** What each figure must stay under at 10,000 ideas (see docs/performance.md). */
const TARGETS = { coldOverFloor: 2, warmMs: 400, editToIndexP95Ms: 300, peakRssMb: 400 };

interface Options {
  ideas: number;
  runs: number;
  json: boolean;
  /** Set only in a phase's own process (see `runPhase`). */
  phase: { name: PhaseName; root: string; run: number } | null;
}

interface Result {
  ideas: number;
  files: number;
  coldMs: number;
  warmMs: number;
  /** A restart that also waits for the whole integrity check (full-text index included); no target. */
  warmCheckedMs: number;
  floorMs: number;
  /**
   * Processor time of the floor and of a cold sync, every thread of the process counted (medians).
   * A cold sync spreads its work over two threads; these say how much work it does against the
   * floor's whatever the machine's speed at the time, which the wall-clock ratio does not.
   */
  floorCpuMs: number;
  coldCpuMs: number;
  editToIndexP50Ms: number;
  editToIndexP95Ms: number;
  peakRssMb: number;
  /**
   * Each phase's process: floor and cold, restarts, edits while watching (the highest of the edit
   * runs, each a process of its own), a first launch.
   */
  peakRssByPhaseMb: { cold: number; warm: number; edits: number; firstLaunch: number };
  runs: number;
  coldOverFloor: number;
  /** Each run's cold sync over the floor taken just before it: how far single pairs spread. */
  coldOverFloorPerRun: number[];
  node: string;
  cpus: number;
}

const USAGE = 'usage: npm run bench:sync -- [--ideas N (10000)] [--runs R (5)] [--json]';

/** A bad command line: reported as one line plus the usage, without a stack trace. */
class UsageError extends Error {}

function progress(message: string): void {
  process.stderr.write(`[bench:sync] ${message}\n`);
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} wants a whole number ≥ 1, got "${raw}"`);
  return value;
}

function parseOptions(argv: string[]): Options {
  let values: { ideas?: string; runs?: string; json?: boolean; phase?: string; root?: string; run?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        ideas: { type: 'string' },
        runs: { type: 'string' },
        json: { type: 'boolean', default: false },
        phase: { type: 'string' },
        root: { type: 'string' },
        run: { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  return {
    ideas: positiveInt('ideas', values.ideas, 10_000),
    runs: positiveInt('runs', values.runs, 5),
    json: values.json === true,
    phase:
      values.phase && values.root && values.phase in PHASES
        ? { name: values.phase as PhaseName, root: values.root, run: Number(values.run ?? 0) }
        : null,
  };
}

function vocabularyFromTaxonomy(): Vocabulary {
  const taxonomy = loadTaxonomy(null);
  return {
    types: [...taxonomy.typeIds],
    stages: [...taxonomy.stageIds],
    tags: [...taxonomy.tagCategory.keys()],
    criteria: taxonomy.criteria.map((c) => c.id),
  };
}

function peakRssMb(): number {
  // maxRSS is reported in kilobytes.
  return process.resourceUsage().maxRSS / 1024;
}

/** Memory after a phase, so a peak can be traced to the phase that caused it. */
function memory(): string {
  const { rss, heapUsed } = process.memoryUsage();
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  return `rss ${mb(rss)} MB, heap ${mb(heapUsed)} MB, peak rss ${peakRssMb().toFixed(0)} MB`;
}

/** One unrecorded warm-up, then `runs` timed runs; returns every timed value. */
async function series(label: string, runs: number, once: (run: number) => number | Promise<number>): Promise<number[]> {
  progress(`${label} warm-up: ${(await once(0)).toFixed(1)} ms`);
  const values: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const ms = await once(run);
    values.push(ms);
    progress(`${label} run ${run}/${runs}: ${ms.toFixed(1)} ms`);
  }
  progress(`${label} done (${memory()})`);
  return values;
}

/** Runs `timed`, appends the processor time it took (every thread, ms) to `cpu`, returns its result. */
function withCpu(cpu: number[], timed: () => number): number {
  const before = process.cpuUsage();
  const result = timed();
  const used = process.cpuUsage(before);
  cpu.push((used.user + used.system) / 1000);
  return result;
}

/** What the parent hands each phase's process: the generated workspace and what was generated. */
interface Manifest {
  ideas: number;
  runs: number;
  files: string[];
  slugs: string[];
}

type PhaseName = 'cold' | 'warm' | 'edit' | 'launch';
type PhaseResult = Record<string, number | number[]> & { peakRssMb: number };

/**
 * Each phase runs in a process of its own, as an app start does. All of them in one process would
 * measure, besides the phase, what the C allocator keeps from the phases before it (the threads of
 * eleven index checks and two reading bursts): 360-450 MB here, against 210-330 MB for any single
 * phase (see docs/performance.md).
 */
const PHASES: Record<PhaseName, (root: string, m: Manifest, run: number) => Promise<Omit<PhaseResult, 'peakRssMb'>>> = {
  // The two sides of the ratio run in turns (floor, cold, floor, cold …) after one warm-up of each,
  // in one process, so that whatever else the machine does at the time weighs on both alike.
  async cold(root, { ideas, runs, files }) {
    progress(`floor warm-up: ${timeFloor(root, files).toFixed(1)} ms`);
    progress(`cold warm-up: ${timeCold(root, ideas).toFixed(1)} ms`);
    const floor: number[] = [];
    const cold: number[] = [];
    const floorCpu: number[] = [];
    const coldCpu: number[] = [];
    for (let run = 1; run <= runs; run++) {
      floor.push(withCpu(floorCpu, () => timeFloor(root, files)));
      cold.push(withCpu(coldCpu, () => timeCold(root, ideas)));
      progress(
        `run ${run}/${runs}: floor ${floor.at(-1)?.toFixed(1)} ms (cpu ${floorCpu.at(-1)?.toFixed(0)}), ` +
          `cold ${cold.at(-1)?.toFixed(1)} ms (cpu ${coldCpu.at(-1)?.toFixed(0)})`,
      );
    }
    return { floor, cold, floorCpu, coldCpu };
  },
  async warm(root, { runs }) {
    const warm = await series('warm', runs, () => timeWarm(root));
    const checked = await series('warm, full check awaited', runs, () => timeWarm(root, { checkFully: true }));
    return { warm, checked };
  },
  // One edit run: open, watch, edit. Each run is a process of its own, as an app start is: one
  // process that opened and closed the workspace and its watcher several times over would measure
  // the garbage of the earlier starts too (see docs/performance.md, ninth round).
  async edit(root, { runs, slugs }, run) {
    const edits = await timeEdits(root, slugs, EDITS_PER_RUN, run);
    progress(
      `edit run ${run}/${runs}: p50 ${edits.p50.toFixed(1)} ms, p95 ${edits.p95.toFixed(1)} ms, ` +
        `max ${Math.max(...edits.latencies).toFixed(1)} ms (watcher ready in ${edits.watchReadyMs.toFixed(0)} ms)`,
    );
    return { p50: edits.p50, p95: edits.p95 };
  },
  // A first launch on this library, for its memory: empty index, full sync, watcher, edits.
  async launch(root, { slugs }) {
    rmSync(join(root, '.crucible'), { recursive: true, force: true });
    const edits = await timeEdits(root, slugs, EDITS_PER_RUN, 0);
    progress(
      `first launch: edit p95 ${edits.p95.toFixed(1)} ms (watcher ready in ${edits.watchReadyMs.toFixed(0)} ms)`,
    );
    return { p95: edits.p95 };
  },
};

/** Runs one phase in a child process of this script and returns what it measured. */
function runPhase(name: PhaseName, root: string, run = 0): Promise<PhaseResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--phase', name, '--root', root, '--run', String(run)], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let result: PhaseResult | null = null;
    child.on('message', (message) => {
      result = message as PhaseResult;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (result && code === 0) resolve(result);
      else reject(new Error(`the ${name} phase failed (exit code ${code})`));
    });
  });
}

async function runChild(name: PhaseName, root: string, run: number): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(root, MANIFEST), 'utf8')) as Manifest;
  const result = await PHASES[name](root, manifest, run);
  progress(`${name} done (${memory()})`);
  process.send?.({ ...result, peakRssMb: peakRssMb() });
}

const MANIFEST = '.bench-manifest.json';

async function measure(root: string, options: Options): Promise<Result> {
  const { ideas, runs } = options;
  progress(`generating ${ideas} ideas in ${root}`);
  const started = performance.now();
  const ws = generateWorkspace(root, ideas, vocabularyFromTaxonomy());
  progress(
    `generated ${ws.files.length} files, ${(ws.bytes / 1024 / 1024).toFixed(1)} MB, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  warmPageCache(root, ws.files);
  progress('page cache warm');
  const manifest: Manifest = { ideas, runs, files: ws.files, slugs: ws.slugs };
  writeFileSync(join(root, MANIFEST), JSON.stringify(manifest));

  const cold = await runPhase('cold', root);
  const warm = await runPhase('warm', root);
  const editRuns: PhaseResult[] = [];
  for (let run = 1; run <= runs; run++) editRuns.push(await runPhase('edit', root, run));
  const edits = {
    p50s: editRuns.map((r) => r.p50 as number),
    p95s: editRuns.map((r) => r.p95 as number),
    peakRssMb: Math.max(...editRuns.map((r) => r.peakRssMb)),
  };
  const launch = await runPhase('launch', root);
  const values = (phase: PhaseResult, key: string) => phase[key] as number[];

  const floorMs = median(values(cold, 'floor'));
  const coldMs = median(values(cold, 'cold'));
  const peaks = { cold: cold.peakRssMb, warm: warm.peakRssMb, edits: edits.peakRssMb, firstLaunch: launch.peakRssMb };
  return {
    ideas,
    files: ws.files.length,
    coldMs: round1(coldMs),
    warmMs: round1(median(values(warm, 'warm'))),
    warmCheckedMs: round1(median(values(warm, 'checked'))),
    floorMs: round1(floorMs),
    floorCpuMs: round1(median(values(cold, 'floorCpu'))),
    coldCpuMs: round1(median(values(cold, 'coldCpu'))),
    editToIndexP50Ms: round1(median(edits.p50s)),
    editToIndexP95Ms: round1(median(edits.p95s)),
    peakRssMb: round1(Math.max(...Object.values(peaks))),
    peakRssByPhaseMb: Object.fromEntries(Object.entries(peaks).map(([k, v]) => [k, round1(v)])) as typeof peaks,
    runs,
    coldOverFloor: Math.round((coldMs / floorMs) * 100) / 100,
    coldOverFloorPerRun: values(cold, 'cold').map(
      (ms, i) => Math.round((ms / (values(cold, 'floor')[i] as number)) * 100) / 100,
    ),
    node: process.version,
    cpus: cpus().length,
  };
}

function table(result: Result): string {
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const rows: [string, string, string][] = [
    ['ideas / files', `${result.ideas} / ${result.files}`, ''],
    ['floor (read + parse)', `${result.floorMs} ms`, ''],
    [
      'cold sync',
      `${result.coldMs} ms (${result.coldOverFloor} × floor)`,
      `≤ ${TARGETS.coldOverFloor} × floor: ${verdict(result.coldOverFloor <= TARGETS.coldOverFloor)}`,
    ],
    ['processor time, floor / cold', `${result.floorCpuMs} / ${result.coldCpuMs} ms (every thread)`, ''],
    ['warm sync', `${result.warmMs} ms`, `≤ ${TARGETS.warmMs} ms: ${verdict(result.warmMs <= TARGETS.warmMs)}`],
    ['warm, full check awaited', `${result.warmCheckedMs} ms`, ''],
    ['edit → index p50', `${result.editToIndexP50Ms} ms`, ''],
    [
      'edit → index p95',
      `${result.editToIndexP95Ms} ms`,
      `≤ ${TARGETS.editToIndexP95Ms} ms: ${verdict(result.editToIndexP95Ms <= TARGETS.editToIndexP95Ms)}`,
    ],
    [
      'peak RSS (highest phase)',
      `${result.peakRssMb} MB`,
      `≤ ${TARGETS.peakRssMb} MB: ${verdict(result.peakRssMb <= TARGETS.peakRssMb)}`,
    ],
    [
      '  by phase',
      Object.entries(result.peakRssByPhaseMb)
        .map(([phase, mb]) => `${phase} ${mb}`)
        .join(' · '),
      '',
    ],
  ];
  const width = (i: 0 | 1) => Math.max(...rows.map((r) => r[i].length));
  const lines = rows.map(([name, value, target]) =>
    `${name.padEnd(width(0))}  ${value.padEnd(width(1))}  ${target}`.trimEnd(),
  );
  const note = `median of ${result.runs} run${result.runs === 1 ? '' : 's'} · Node ${result.node} · ${result.cpus} CPUs (targets apply at 10000 ideas)`;
  return `${lines.join('\n')}\n${note}\n`;
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (options.phase) {
    await runChild(options.phase.name, options.phase.root, options.phase.run);
    return 0;
  }
  const root = mkdtempSync(join(tmpdir(), 'crucible-bench-'));
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  // Interrupted runs must not leave tens of thousands of files in the temp folder either.
  process.on('exit', cleanup);
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  try {
    const result = await measure(root, options);
    process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : table(result));
    return 0;
  } finally {
    cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) progress(`${error.message}\n${USAGE}`);
    else progress(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
