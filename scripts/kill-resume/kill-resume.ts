/**
 * kill -9 and resume: a seeded simulated debate and a seeded simulated evaluation, each run once
 * uninterrupted as the reference, then N times started as a real CLI process, SIGKILLed at a random
 * moment of its work (a seeded delay spread over the reference's working time), resumed from the
 * CLI (the resume killed too, now and then) until it ends, and its final `show --json` compared
 * with the reference's, byte for byte after the goldens' normalisation (tests/goldens/normalise.ts).
 *
 *   npm run kill-resume -- --times N [--seed S] [--only debate|evaluation] [--json]
 *
 * The simulator is paced with CRUCIBLE_SIMULATED_LATENCY_MS (see scripts/kill-resume/subjects.ts)
 * so that a run lasts long enough to be killed halfway. Progress goes to stderr; with --json stdout
 * carries {debate: {runs, killedMidway, equal, …}, evaluation: {…}}. Exits 1 on any difference.
 */
import { parseArgs } from 'node:util';
import { debateSubject, evaluationSubject } from './subjects';
import { killResume } from './trials';

const { values } = parseArgs({
  options: {
    times: { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
    only: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const times = Number(values.times);
const seed = Number(values.seed);
if (!Number.isInteger(times) || times < 1) throw new Error('--times must be a whole number of at least 1');
if (!Number.isInteger(seed)) throw new Error('--seed must be a whole number');
if (values.only !== undefined && values.only !== 'debate' && values.only !== 'evaluation')
  throw new Error('--only is debate or evaluation');

const started = Date.now();
const report = await killResume({
  times,
  seed,
  subjects: [debateSubject, evaluationSubject].filter((s) => values.only === undefined || s.kind === values.only),
  log: (line) => process.stderr.write(`[kill-resume ${((Date.now() - started) / 1000).toFixed(0)} s] ${line}\n`),
});
const failed = Object.values(report).some((f) => f.equal !== f.runs);
if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else
  for (const [kind, f] of Object.entries(report))
    process.stdout.write(
      `${kind}: ${f.equal}/${f.runs} equal to the uninterrupted run; ${f.killedMidway} killed midway, ${f.resumesKilled} resumes killed too, ${f.startedOver} started over\n${f.differences.map((d) => `  ${d}\n`).join('')}`,
    );
process.exitCode = failed ? 1 : 0;
