import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../core/node/cli/io';
import { runCli } from '../../core/node/cli/main';
import { cli, cliJson } from '../helpers/run-cli';

// `capture` as a researcher runs it on a workspace made by `init` (the sample ideas): classified
// first, NEW written at once, the rest asked on a terminal, taken from --as, or refused naming the
// candidates when nobody can be asked.

const SOLAR_SUMMARY =
  "A member-owned cooperative that puts solar panels on the neighbourhood's large flat roofs, sells the power to the buildings at a discount, and pays members a modest return.";
const BORDERLINE = 'Store the power from the school roof in a shared battery so members can use it in the evening.';

let root = '';
let ws = '';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'crucible-capture-cli-'));
  ws = join(root, 'ws');
  cliJson(['init', ws]);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An in-process terminal that answers each question with the next of `answers`. */
function terminal(answers: string[]): CliIo & { lines: string[]; asked: string[] } {
  const lines: string[] = [];
  const asked: string[] = [];
  return {
    lines,
    asked,
    out: (text) => lines.push(text),
    err: (text) => lines.push(`stderr: ${text}`),
    untilStopped: async () => {},
    ask: async (question) => {
      asked.push(question);
      return answers.shift() ?? null;
    },
  };
}

describe('capture', { timeout: 120_000 }, () => {
  it('writes a NEW capture at once, and refuses an EXISTING or AMBIGUOUS one without --as, naming the candidates', () => {
    const created = cliJson<{ slug: string; placed: string; classification: { decision: string } }>([
      'capture',
      '--workspace',
      ws,
      '--title',
      'Sourdough by bicycle',
      '--text',
      'A weekly sourdough bread subscription delivered by bicycle to offices in the old town.',
    ]);
    const existing = cli(['capture', '--workspace', ws, '--title', 'Solar on the big roofs', '--text', SOLAR_SUMMARY]);
    const ambiguous = cli([
      'capture',
      '--workspace',
      ws,
      '--title',
      'Batteries for the co-op',
      '--text',
      BORDERLINE,
      '--json',
    ]);
    const classified = JSON.parse(ambiguous.stdout);
    expect({
      created: [created.slug, created.placed, created.classification.decision],
      existing: [existing.code, existing.stdout, existing.stderr],
      ambiguous: [ambiguous.code, ambiguous.stderr, classified.placed, classified.classification.decision],
      written: readFileSync(join(ws, 'ideas', 'community-solar-coop', 'README.md'), 'utf8').includes('Captured'),
    }).toEqual({
      created: ['sourdough-by-bicycle', 'new', 'NEW'],
      existing: [
        1,
        '',
        'error: capture: this text belongs to "community-solar-coop" (1.00); nothing was written. Choose with --as existing:community-solar-coop, --as inspired:community-solar-coop, --as new\n',
      ],
      ambiguous: [
        1,
        'error: capture: this text may belong to an idea you have: "community-solar-coop" (0.46), "soil-moisture-lora" (0.33); nothing was written. Choose with --as existing:community-solar-coop, --as existing:soil-moisture-lora, --as inspired:community-solar-coop, --as new\n',
        null,
        'AMBIGUOUS',
      ],
      written: false,
    });
  });

  it('takes --as, checks without writing, and lets a model decide', () => {
    const file = join(root, 'solar.md');
    writeFileSync(file, `# Solar on the big roofs\n\n${SOLAR_SUMMARY}\n`);
    const check = cliJson<{ placed: null; classification: { decision: string; slug: string } }>([
      'capture',
      '--workspace',
      ws,
      '--file',
      file,
      '--check',
    ]);
    const added = cli(['capture', '--workspace', ws, '--file', file, '--as', 'existing:community-solar-coop']);
    const again = cliJson<{ classification: { duplicateOf: string; by: string } }>([
      'capture',
      '--workspace',
      ws,
      '--file',
      file,
      '--check',
      '--provider',
      'simulated',
    ]);
    const modelled = cliJson<{ classification: { decision: string; by: string }; costUsd: number }>([
      'capture',
      '--workspace',
      ws,
      '--title',
      'Batteries for the co-op',
      '--text',
      BORDERLINE,
      '--check',
      '--provider',
      'simulated',
    ]);
    const bad = cli(['capture', '--workspace', ws, '--file', file, '--as', 'maybe']);
    expect({
      check: [check.placed, check.classification.decision, check.classification.slug],
      added: [added.code, added.stdout.split('\n').at(-2)],
      again: [again.classification.duplicateOf, again.classification.by],
      modelled: [modelled.classification.decision, modelled.classification.by, modelled.costUsd],
      bad: [bad.code, bad.stderr],
    }).toEqual({
      check: [null, 'EXISTING', 'community-solar-coop'],
      added: [0, 'Added to community-solar-coop (ideas/community-solar-coop/README.md)'],
      // A text captured before is known by its identity: no model is asked.
      again: ['community-solar-coop', 'identity'],
      modelled: ['AMBIGUOUS', 'model', 0],
      bad: [1, 'error: capture: --as is new, existing:SLUG or inspired:SLUG, not "maybe"\n'],
    });
  });

  it('asks on a terminal: the choices offered, the one typed placed, q writes nothing', async () => {
    const io = terminal(['5', '3']);
    const code = await runCli(
      ['capture', '--workspace', ws, '--title', 'Batteries for the co-op', '--text', BORDERLINE],
      io,
    );
    const quit = terminal(['q']);
    const quitCode = await runCli(
      ['capture', '--workspace', ws, '--title', 'Battery bank', '--text', BORDERLINE],
      quit,
    );
    const slug = 'batteries-for-the-co-op';
    expect({
      code,
      shown: io.lines.slice(1),
      asked: io.asked,
      links: readFileSync(join(ws, 'ideas', slug, 'README.md'), 'utf8').match(/^relationships: .*$/m)?.[0],
      quit: [quitCode, quit.lines.at(-1)],
    }).toEqual({
      code: 0,
      shown: [
        [
          '  1. add it to community-solar-coop ("A community-owned solar co-op for the neighbourhood\'s big roofs")',
          '  2. add it to soil-moisture-lora ("Low-cost soil-moisture sensing over LoRaWAN on a community allotment")',
          '  3. a new idea, inspired by community-solar-coop',
          '  4. a new idea',
        ].join('\n'),
        'Type a number from 1 to 4, or q.',
        `Captured "Batteries for the co-op" as ideas/${slug}/README.md, inspired by community-solar-coop`,
      ],
      asked: ['Choose 1-4 (Enter: 1, q: write nothing): ', 'Choose 1-4 (Enter: 1, q: write nothing): '],
      links:
        'relationships: [{"target":"community-solar-coop","type":"inspired_by","reason":"captured as a new idea close to this one"}]',
      quit: [0, 'Nothing was written.'],
    });
  });
});
