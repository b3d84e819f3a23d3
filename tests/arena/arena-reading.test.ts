import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArenaResult } from '../../core/arena';
import { arenaExportMarkdown } from '../../core/node/arena/arena-export';
import { arenaSetupFor } from '../../core/node/arena/arena-setup';
import { writeExport } from '../../core/node/export/export-document';
import { type RunReport, RunService } from '../../core/node/runs/run-service';
import { Workspace } from '../../core/node/workspace/workspace';
import { cli } from '../helpers/run-cli';
import { readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// After an arena: it is listed with every run (`runs list --protocol arena`) and among the debates
// (`debates list`, kind arena), shown by `debates show`, resumed by `resume` when it was cut off, its
// transcript is listed and searchable down to the words of a proposal's claims and the judge's
// reasons, and it exports to Markdown (result first, then every transcript message as a heading),
// HTML and PDF.

let ws: { root: string; cleanup: () => void };
let run: RunReport;
let setup: unknown;
let topic: string;
beforeAll(async () => {
  ws = tempWorkspace('crucible-arena-reading-');
  writeFile(ws.root, 'ideas/solar-coop/README.md', readme('A community solar co-op'));
  const w = Workspace.open(ws.root);
  try {
    w.sync();
    ({ topic, setup } = arenaSetupFor(w, {
      ideaSlug: 'solar-coop',
      agents: ['investor', 'historian', 'regulator'],
      judge: 'judge',
      trickster: true,
      similarity: 'lexical',
      ledger: { cruxes: [], falsifiers: [] },
    }));
    run = await new RunService(w).start({
      protocol: 'arena',
      ideaSlug: 'solar-coop',
      topic,
      provider: 'simulated',
      seed: 4,
      setup,
    });
  } finally {
    w.close();
  }
}, 60_000);
afterAll(() => ws.cleanup());

const json = <T>(args: string[]): T => {
  const r = cli([...args, '--workspace', ws.root, '--json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as T;
};

describe('an arena after it ran', { timeout: 120_000 }, () => {
  it('is listed, and its transcript is listed and searchable to the words of a claim', () => {
    const runs = json<{ runs: { id: string; protocol: string; status: string }[] }>([
      'runs',
      'list',
      '--protocol',
      'arena',
    ]);
    const transcripts = json<{ transcripts: { kind: string; id: string; messages: number }[] }>([
      'transcripts',
      'list',
    ]);
    // Words only a claim's evidence carries, and words only the judge's reasons carry.
    const claim = json<{ hits: { id: string; agent: string }[] }>([
      'transcripts',
      'search',
      'observation',
      '--kind',
      'run',
    ]);
    const judge = json<{ hits: { id: string; agent: string }[] }>([
      'transcripts',
      'search',
      'plan answers the question',
      '--kind',
      'run',
    ]);
    // The simulator's evidence quotes read "an observation behind claim N"; no other text has the word.
    const withEvidence = run.transcript.filter((l) => l.text.includes('observation'));
    expect({
      runs: runs.runs.map((r) => [r.id, r.protocol, r.status]),
      transcripts: transcripts.transcripts.map((t) => [t.kind, t.id, t.messages]),
      claim: claim.hits.map((h) => [h.id, h.agent]),
      judge: [...new Set(judge.hits.map((h) => `${h.id} ${h.agent}`))],
    }).toEqual({
      runs: [[run.id, 'arena', 'completed']],
      transcripts: [['run', run.id, run.transcript.length]],
      claim: withEvidence.map((l) => [run.id, l.author]),
      judge: [`${run.id} judge`],
    });
    expect(withEvidence.length).toBeGreaterThan(0);
  });

  it('is listed among the debates with its kind, shown, and resumed by `resume` after it was cut off', async () => {
    // The same arena again, cut off after its eighth answer as a kill would leave it (no last status).
    let id = '';
    const w = Workspace.open(ws.root);
    try {
      let answers = 0;
      const cut = await new RunService(w)
        .start(
          { protocol: 'arena', ideaSlug: 'solar-coop', topic, provider: 'simulated', seed: 4, setup },
          {
            onStarted: (started) => {
              id = started;
            },
            onRecords: (records) => {
              answers += records.filter((r) => r.type === 'input').length;
              if (answers >= 8) throw new Error('cut off');
            },
          },
        )
        .then(
          () => 'ran to its end',
          (error: Error) => error.message,
        );
      expect(cut).toBe('cut off');
    } finally {
      w.close();
    }
    const listed = json<{ debates: { id: string; kind: string; status: string }[] }>(['debates', 'list']);
    const text = cli(['debates', 'list', '--workspace', ws.root]).stdout;
    const map = cli(['debates', 'map', id, '--workspace', ws.root]);
    const resumed = json<RunReport>(['resume', id]);
    const shown = json<RunReport & { kind: string }>(['debates', 'show', id]);
    const page = cli(['debates', 'show', id, '--workspace', ws.root]);
    expect({
      listed: listed.debates.map((d) => [d.id, d.kind, d.status]),
      column: text
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/).slice(0, 3)),
      map: [map.code, map.stderr.trim()],
      resumed: [resumed.status, resumed.summary],
      shown: [shown.kind, shown.status, shown.summary, shown.transcript.length],
      page: [page.code, page.stdout.split('\n').slice(0, 3)],
    }).toEqual({
      listed: [
        [id, 'arena', 'running'],
        [run.id, 'arena', 'completed'],
      ],
      column: [
        [id, 'arena', 'running'],
        [run.id, 'arena', 'completed'],
      ],
      map: [
        1,
        `error: debates map: ${id} is an arena, which has no crux map (a crux debate's); see: debates show ${id}`,
      ],
      // Resumed from its log, it ends as the uninterrupted arena of the same setup and seed did.
      resumed: ['completed', run.summary],
      shown: ['arena', 'completed', run.summary, run.transcript.length],
      page: [0, ['---', 'kind: arena-transcript', `arena: "${id}"`]],
    });
  });

  it('exports its result and transcript as Markdown, HTML and PDF', async () => {
    const md = join(ws.root, 'arena.md');
    const html = join(ws.root, 'arena.html');
    const wrote = cli(['export', '--arena', run.id, '--format', 'md', '--out', md, '--workspace', ws.root]);
    const wroteHtml = cli(['export', '--arena', run.id, '--format', 'html', '--out', html, '--workspace', ws.root]);
    const text = readFileSync(md, 'utf8');
    const page = readFileSync(html, 'utf8');
    const result = run.summary as unknown as ArenaResult;
    // The PDF is printed from the HTML; a printer that hands back what it was given shows which HTML.
    const w = Workspace.open(ws.root);
    let printed = '';
    try {
      const { markdown, rel } = arenaExportMarkdown(w, run.id);
      await writeExport(markdown, rel, 'pdf', join(ws.root, 'arena.pdf'), {
        printPdf: async (h) => {
          printed = h;
          return Buffer.from(`%PDF-fake ${h.length}`);
        },
      });
    } finally {
      w.close();
    }
    const rows = (text.match(/^\| \d+ \| .* \|$/gm) ?? []).filter((r) => r.includes(' → '));
    expect({
      codes: [wrote.code, wroteHtml.code],
      front: text.split('\n').slice(0, 3),
      ranking: rows.map((r) => r.split(' | ')[1]?.replace(/.*\[(.*)\]$/, '$1')),
      scores: rows.map((r) => Number(r.split(' | ')[2])),
      outcome: text.includes(`**${result.outcome}**`),
      convergence: (text.match(/^\| [3-5] \| [0-9.]+ \| lexical \|$/gm) ?? []).length,
      headings: (text.match(/^### \d+\. /gm) ?? []).length,
      htmlByline: page.includes(`Arena ${run.id} · completed`),
      pdfFromHtml: printed === page,
      pdf: readFileSync(join(ws.root, 'arena.pdf'), 'utf8').startsWith('%PDF-'),
    }).toEqual({
      codes: [0, 0],
      front: ['---', 'kind: arena-transcript', `arena: "${run.id}"`],
      ranking: result.judge.ranking,
      scores: result.judge.ranking.map((a) => result.judge.scores[a]),
      outcome: true,
      convergence: result.convergence.length,
      headings: run.transcript.length,
      htmlByline: true,
      pdfFromHtml: true,
      pdf: true,
    });
  });
});
