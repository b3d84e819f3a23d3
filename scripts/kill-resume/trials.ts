import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Prng } from '../../bench/lib/prng';
import { normalise } from '../../tests/goldens/normalise';
import { runHeldBy, start } from '../../tests/helpers/cli-process';
import { cliAsync } from '../../tests/helpers/run-cli-async';
import type { Subject } from './subjects';

/**
 * kill -9 and resume, as a user would suffer it: a seeded simulated run started as a real CLI
 * process is SIGKILLed at a random moment of its work, then resumed from the CLI (the resume itself
 * killed now and then, and resumed again) until it ends. What it finally shows must equal, byte for
 * byte after the goldens' normalisation, what one uninterrupted run of it shows.
 */

export interface SubjectFigures {
  /** Interrupted runs made. */
  runs: number;
  /** Of those, killed while the run was under way (not once it had ended). */
  killedMidway: number;
  /** Resumes that were killed too, and resumed again. */
  resumesKilled: number;
  /** Kills that came before the run had saved anything to resume, so it was started over. */
  startedOver: number;
  /** Runs whose final JSON equals the uninterrupted run's. */
  equal: number;
  /** How long the uninterrupted run worked (its lease taken → its process ended), the window kills fall in. */
  windowMs: number;
  /** The first differing line of each run that was not equal, or what went wrong. */
  differences: string[];
}

export interface Options {
  /** Kills that must land while the run is under way, per subject. */
  times: number;
  seed: number;
  subjects: Subject[];
  log?: (line: string) => void;
  /** Hears each subject's uninterrupted run, normalised: what every interrupted one must equal. */
  onReference?: (kind: Subject['kind'], text: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where two texts first part, as a line to look for, or null when they are equal. */
export function firstDifference(expected: string, actual: string): string | null {
  if (expected === actual) return null;
  const want = expected.split('\n');
  const got = actual.split('\n');
  const line = want.findIndex((w, i) => w !== got[i]);
  const at = line === -1 ? want.length : line;
  return `line ${at + 1}: expected ${JSON.stringify(want[at] ?? '(end)')}, got ${JSON.stringify(got[at] ?? '(end)')}`;
}

/** A fresh copy of the sample workspace (its index left behind: the first command rebuilds it). */
function freshWorkspace(template: string, base: string, name: string): string {
  const ws = join(base, name);
  cpSync(template, ws, { recursive: true, filter: (src) => !src.startsWith(join(template, '.crucible')) });
  return ws;
}

type Started = ReturnType<typeof start>;

const running = (p: Started) => p.child.exitCode === null && p.child.signalCode === null;

/** The run `p` holds once it has taken its lease, or null if its process ended first. */
async function leaseOf(ws: string, p: Started): Promise<string | null> {
  const deadline = Date.now() + 120_000;
  while (running(p)) {
    const id = runHeldBy(ws, p.child.pid as number);
    if (id) return id;
    if (Date.now() > deadline) throw new Error('a run took no lease in two minutes');
    await sleep(10);
  }
  return null;
}

/**
 * SIGKILLs `p` `delayMs` from now unless its process ends first. Says whether the kill landed and,
 * when it did not, how long the process went on (a full run's working time, to size the window).
 */
async function killAfter(p: Started, delayMs: number): Promise<{ landed: boolean; ranMs: number | null }> {
  const from = Date.now();
  let endedAt: number | null = null;
  void p.exit.then(() => {
    endedAt = Date.now();
  });
  await sleep(delayMs);
  const landed = running(p);
  if (landed) p.child.kill('SIGKILL');
  await p.exit;
  return { landed, ranMs: landed || endedAt === null ? null : endedAt - from };
}

/** The shown JSON of run `id` with what differs between any two runs named. */
function named(subject: Subject, ws: string, id: string, shown: string): string {
  return normalise(shown, { [ws]: '<workspace>', [id]: subject.idName });
}

async function finalText(subject: Subject, ws: string, id: string): Promise<string> {
  return named(subject, ws, id, await subject.show(ws, id));
}

async function reference(subject: Subject, ws: string): Promise<{ text: string; windowMs: number }> {
  const run = start(subject.start(ws), subject.latencyMs);
  const id = await leaseOf(ws, run);
  const from = Date.now();
  const end = await run.exit;
  if (end.code !== 0 || id === null) throw new Error(`the uninterrupted ${subject.kind} failed: ${end.stderr}`);
  return { text: await finalText(subject, ws, id), windowMs: Date.now() - from };
}

interface Trial {
  killedMidway: boolean;
  resumesKilled: number;
  startedOver: number;
  /** When the first kill came too late: how long that run worked in all. */
  ranMs: number | null;
  difference: string | null;
}

async function trial(subject: Subject, ws: string, rng: Prng, windowMs: number, expected: string): Promise<Trial> {
  const t: Trial = { killedMidway: false, resumesKilled: 0, startedOver: 0, ranMs: null, difference: null };
  let id: string | null = null;
  let shown: string | null = null;
  // Started, and killed at a random moment of its work; started over when the kill came after its
  // lease but before it had saved anything to resume from (the CLI then knows no such run).
  while (shown === null) {
    const run = start(subject.start(ws), subject.latencyMs);
    id = await leaseOf(ws, run);
    const kill = await killAfter(run, rng.next() * windowMs);
    if (id === null) return { ...t, difference: `the run ended before it took its lease: ${(await run.exit).stderr}` };
    shown = await subject.shownOrNull(ws, id);
    if (shown === null && ++t.startedOver > 5) return { ...t, difference: 'never got far enough to be resumed' };
    t.killedMidway = kill.landed && shown !== null && !subject.ended(shown);
    t.ranMs = kill.ranMs;
  }
  const runId = id as string;
  // A run killed after it had ended needs no resume: what it shows now is its end.
  if (subject.ended(shown)) return { ...t, difference: firstDifference(expected, named(subject, ws, runId, shown)) };
  // Resumed until it ends; now and then the resume is killed too, and resumed again.
  for (let attempt = 0; ; attempt++) {
    const resumed = start(subject.resume(ws, runId), subject.latencyMs);
    if (attempt < 3 && rng.chance(0.3)) {
      await leaseOf(ws, resumed);
      if ((await killAfter(resumed, rng.next() * windowMs)).landed) {
        t.resumesKilled++;
        continue;
      }
    }
    const end = await resumed.exit;
    // The resume before may have been killed just after the run ended: an evaluation then refuses
    // a resume, having nothing left to do, and what it shows says so.
    if (end.code !== 0 && !subject.ended(await subject.show(ws, runId)))
      return { ...t, difference: `resume exited ${end.code}: ${end.stderr.trim()}` };
    break;
  }
  return { ...t, difference: firstDifference(expected, await finalText(subject, ws, runId)) };
}

/** One subject: its reference, then runs until `times` kills have landed midway (at most 3 × times runs). */
async function trials(subject: Subject, template: string, base: string, options: Options): Promise<SubjectFigures> {
  const log = options.log ?? (() => {});
  const rng = new Prng(options.seed);
  const ref = await reference(subject, freshWorkspace(template, base, `${subject.kind}-reference`));
  log(`${subject.kind}: the uninterrupted run worked ${ref.windowMs} ms`);
  options.onReference?.(subject.kind, ref.text);
  const f: SubjectFigures = {
    runs: 0,
    killedMidway: 0,
    resumesKilled: 0,
    startedOver: 0,
    equal: 0,
    windowMs: ref.windowMs,
    differences: [],
  };
  while (f.killedMidway < options.times && f.runs < 3 * options.times) {
    const ws = freshWorkspace(template, base, `${subject.kind}-${f.runs}`);
    // A run that could not be carried through is a failure of this run, reported with the others.
    const t = await trial(subject, ws, rng, f.windowMs, ref.text).catch(
      (error: unknown): Trial => ({
        killedMidway: false,
        resumesKilled: 0,
        startedOver: 0,
        ranMs: null,
        difference: `failed: ${error instanceof Error ? error.message : String(error)}`,
      }),
    );
    f.runs++;
    if (t.killedMidway) f.killedMidway++;
    f.resumesKilled += t.resumesKilled;
    f.startedOver += t.startedOver;
    // A machine busier during the reference than now makes the window too long: a run seen whole
    // narrows it to what a run takes now.
    if (t.ranMs !== null) f.windowMs = Math.min(f.windowMs, t.ranMs);
    if (t.difference === null) f.equal++;
    else {
      // Kept for a look: the workspace of a run that came out different, its logs as they were left.
      const kept = mkdtempSync(join(tmpdir(), `crucible-kill-resume-${subject.kind}-${f.runs}-`));
      cpSync(ws, kept, { recursive: true });
      f.differences.push(`run ${f.runs} (kept in ${kept}): ${t.difference}`);
    }
    log(
      `${subject.kind} run ${f.runs}: ${t.killedMidway ? 'killed midway' : 'killed after it ended'}, ${t.resumesKilled} resume(s) killed, ${t.difference === null ? 'equal' : `DIFFERENT: ${t.difference}`}`,
    );
    rmSync(ws, { recursive: true, force: true });
  }
  return f;
}

/** Every subject side by side (each its own workspaces and its own seeded random moments). */
export async function killResume(options: Options): Promise<Record<string, SubjectFigures>> {
  const base = mkdtempSync(join(tmpdir(), 'crucible-kill-resume-'));
  try {
    const template = join(base, 'template');
    const init = await cliAsync(['init', template, '--json']);
    if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);
    const figures = await Promise.all(options.subjects.map((s) => trials(s, template, base, options)));
    return Object.fromEntries(options.subjects.map((s, i) => [s.kind, figures[i] as SubjectFigures]));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
