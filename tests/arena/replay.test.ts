import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runArenaReplay, ScriptError } from '../../core/arena';
import { cli } from '../helpers/run-cli';

// The shared example and our own scripts (tests/arena/scripts, each explained in
// docs/arena-protocol.md) against outputs computed by hand; then scripts that must be refused.

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'arena');
const SCRIPTS = join(import.meta.dirname, 'scripts');
const read = (path: string) => readFileSync(path, 'utf8');
const example = read(join(FIXTURES, 'arena-replay-small.jsonl'));

describe('arena replays', () => {
  it('the shared example gives exactly its expected result', () => {
    expect(runArenaReplay(example)).toEqual(JSON.parse(read(join(FIXTURES, 'arena-replay-small.expected.json'))));
  });

  it('each of our scripts gives the result computed by hand', () => {
    const names = readdirSync(SCRIPTS).filter((f) => f.endsWith('.jsonl'));
    const results = Object.fromEntries(names.map((n) => [n, runArenaReplay(read(join(SCRIPTS, n)))]));
    const expected = Object.fromEntries(
      names.map((n) => [n, JSON.parse(read(join(SCRIPTS, n.replace('.jsonl', '.expected.json'))))]),
    );
    expect(names.sort()).toEqual([
      'hollow-trickster.jsonl',
      'judged-early.jsonl',
      'judged-lead.jsonl',
      'split-extended.jsonl',
    ]);
    expect(results).toEqual(expected);
  });
});

/** The example with line `n` (1-based) changed by `edit`, or removed when `edit` returns null. */
function edited(changes: Record<number, (line: Record<string, unknown>) => Record<string, unknown> | null>): string {
  return example
    .trim()
    .split('\n')
    .flatMap((text, i) => {
      const edit = changes[i + 1];
      if (!edit) return [text];
      const out = edit(JSON.parse(text));
      return out === null ? [] : [JSON.stringify(out)];
    })
    .join('\n');
}

function refusal(text: string): string {
  try {
    runArenaReplay(text);
  } catch (error) {
    if (error instanceof ScriptError) return error.message;
    throw error;
  }
  return 'accepted';
}

const lines = example.trim().split('\n');
const withOutput =
  (patch: (o: Record<string, unknown>) => Record<string, unknown>) => (l: Record<string, unknown>) => ({
    ...l,
    output: patch(l.output as Record<string, unknown>),
  });

describe('bad arena scripts', () => {
  it('are refused with the line at fault and the reason', () => {
    const swapped = [lines[0], lines[2], lines[1], ...lines.slice(3)].join('\n');
    const similarity = JSON.stringify({
      type: 'similarity',
      round: 3,
      output: { pairs: [{ a: 'ana', b: 'ben', agreement: 1 }] },
    });
    const refinement = lines[10]?.replace('"type": "revision"', '"type": "refinement"').replace(', "round": 4', '');
    expect({
      outOfOrder: refusal(swapped),
      similarityNotAsked: refusal([...lines.slice(0, 10), similarity, ...lines.slice(10)].join('\n')),
      refinementAfterConvergence: refusal([...lines.slice(0, 13), refinement, ...lines.slice(13)].join('\n')),
      missing: refusal(lines.slice(0, 16).join('\n')),
      afterTheEnd: refusal([...lines, lines[13]].join('\n')),
      unknownAgent: refusal(edited({ 2: (l) => ({ ...l, agent: 'zed' }) })),
      schema: refusal(edited({ 14: withOutput((o) => ({ ...o, confidence: 1.5 })) })),
      misspelt: refusal(edited({ 8: withOutput(({ addressed, ...o }) => ({ ...o, adressed: addressed })) })),
      unknownClaim: refusal(
        edited({
          5: withOutput((o) => ({
            critiques: (o.critiques as Record<string, unknown>[]).map((c, i) => (i === 0 ? { ...c, claim: 'b9' } : c)),
          })),
        }),
      ),
      unknownCritique: refusal(edited({ 9: withOutput((o) => ({ ...o, addressed: ['c2-cy-2', 'c2-ben-9'] })) })),
      othersCritique: refusal(edited({ 9: withOutput((o) => ({ ...o, addressed: ['c2-cy-2', 'c2-ben-3'] })) })),
      uncovered: refusal(edited({ 7: withOutput((o) => ({ critiques: (o.critiques as unknown[]).slice(0, 1) })) })),
      selfVote: refusal(edited({ 16: withOutput((o) => ({ ...o, vote: 'cy' })) })),
      judgeMissesOne: refusal(
        edited({ 17: withOutput((o) => ({ ...o, scores: { ana: (o.scores as Record<string, unknown>).ana } })) }),
      ),
      embedding: refusal(edited({ 1: (l) => ({ ...l, config: { similarity: 'embedding' } }) })),
      judgeIsAnAgent: refusal(edited({ 1: (l) => ({ ...l, judge: 'cy' }) })),
    }).toEqual({
      outOfOrder: "line 2: out of order: ben's proposal where the arena asks for ana's proposal",
      similarityNotAsked:
        "line 11: never asked for: the judged similarity of round 3 (the arena asks for ana's revision (round 4))",
      refinementAfterConvergence: "line 14: never asked for: ana's refinement (the arena asks for ana's vote)",
      missing: "line 17: missing answer: the script ends where the arena asks for the judge's scores",
      afterTheEnd: "line 18: never asked for: ana's vote after the arena ended (CONSENSUS)",
      unknownAgent: 'line 2: unknown agent "zed" (the agents are ana, ben, cy)',
      schema: expect.stringMatching(/^line 14: schema violation at output\.confidence: /),
      misspelt: expect.stringMatching(/^line 8: schema violation at output(\.addressed)?: /),
      unknownClaim: 'line 5: critiques[0]: unknown claim id "b9" in ben\'s proposal',
      unknownCritique: 'line 9: addressed[1]: unknown critique id "c2-ben-9"',
      othersCritique: "line 9: addressed[1]: c2-ben-3 is a critique of cy's proposal, not yours",
      uncovered: "line 7: no critique of ben's proposal",
      selfVote: 'line 16: vote: an agent may not vote for its own proposal',
      judgeMissesOne: 'line 17: scores: no score for ben, cy',
      embedding: 'line 1: the embedding similarity cannot be replayed (use "lexical" or "judged")',
      judgeIsAnAgent: 'line 1: the judge "cy" is also an agent',
    });
  });
});

describe('npm run cli -- arena --replay', () => {
  it('prints the example result, and exits 2 with the line of a bad script', () => {
    const run = cli(['arena', '--replay', join(FIXTURES, 'arena-replay-small.jsonl'), '--json']);
    const bad = join(tmpdir(), `arena-bad-${process.pid}.jsonl`);
    writeFileSync(bad, lines.slice(0, 3).join('\n'));
    const failed = cli(['arena', '--replay', bad, '--json']);
    expect({
      code: run.code,
      result: JSON.parse(run.stdout),
      failed: [failed.code, failed.stdout, failed.stderr.trim()],
    }).toEqual({
      code: 0,
      result: JSON.parse(read(join(FIXTURES, 'arena-replay-small.expected.json'))),
      failed: [2, '', `error: ${bad}: line 4: missing answer: the script ends where the arena asks for cy's proposal`],
    });
  });
});
