import { resolve } from 'node:path';
import type { ComparisonView, ImportReportView } from '../../contract';
import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import { jsonOption, workspaceOption } from './common';
import type { CliIo } from './io';
import type { Command } from './workspace-commands';

/** `import DIR` and `compare a,b,c`: bringing notes in and setting ideas side by side. */

function importText(report: ImportReportView): string {
  const lines = [
    `Imported ${report.created.length} note(s) from ${report.source}: ${report.skipped.length} already imported, ${report.errors.length} not imported, ${report.ignored} other file(s) left out.`,
  ];
  for (const c of report.created) lines.push(`  + ${c.file} → ${c.slug} ("${c.title}")`);
  for (const s of report.skipped) lines.push(`  = ${s.file}: ${s.reason}`);
  for (const e of report.errors) lines.push(`  ! ${e.file}: ${e.reason}`);
  return lines.join('\n');
}

const score = (n: number | null) => (n === null ? '—' : n.toFixed(1));

function comparisonText(view: ComparisonView): string {
  const width = 26;
  const cell = (text: string) => (text.length > width - 2 ? `${text.slice(0, width - 3)}…` : text).padEnd(width);
  const row = (label: string, values: string[]) => `${cell(label)}${values.map(cell).join('')}`;
  const lines = [
    row(
      '',
      view.ideas.map((i) => i.title),
    ),
  ];
  lines.push(
    row(
      'overall',
      view.ideas.map((i) => (i.evaluationId === null ? 'not evaluated' : score(i.overallScore))),
    ),
  );
  lines.push(
    row(
      'confidence',
      view.ideas.map((i) => (i.confidence === null ? '—' : `${Math.round(i.confidence * 100)}%`)),
    ),
  );
  lines.push(
    row(
      'recommendation',
      view.ideas.map((i) => i.recommendation ?? '—'),
    ),
  );
  lines.push(
    row(
      'evaluation',
      view.ideas.map((i) => (i.evaluationId === null ? '—' : i.staleReasons.length > 0 ? 'may be stale' : 'current')),
    ),
  );
  for (const c of view.categories)
    lines.push(
      row(
        c.name,
        view.ideas.map((i) => score(i.categories[c.id] ?? null)),
      ),
    );
  for (const idea of view.ideas) {
    if (idea.evaluationId === null) continue;
    lines.push('', `${idea.title} (${idea.slug})`);
    for (const r of idea.staleReasons) lines.push(`  may be stale: ${r}`);
    for (const s of idea.strengths) lines.push(`  + ${s}`);
    for (const w of idea.weaknesses) lines.push(`  - ${w}`);
  }
  if (view.sharedCruxes.length > 0) {
    lines.push('', 'shared cruxes:');
    for (const c of view.sharedCruxes) lines.push(`  ${c.question} (${c.slugs.join(', ')})`);
  }
  return lines.join('\n');
}

function print(io: CliIo, asJson: boolean, value: unknown, text: () => string): void {
  io.out(asJson ? JSON.stringify(value, null, 2) : text());
}

export const incubatorCommands: Command[] = [
  {
    spec: {
      name: 'import',
      summary: 'Import a folder of markdown notes (a vault) as ideas, never writing to it.',
      usage: 'import DIR --workspace WS [--type TYPE] [--stage STAGE] [--json]',
      positionals: ['DIR'],
      options: {
        workspace: workspaceOption,
        type: { type: 'string', value: 'TYPE', description: 'idea type for notes that name none (default research)' },
        stage: { type: 'string', value: 'STAGE', description: 'stage for notes that name none (default SPARK)' },
        json: jsonOption,
      },
    },
    run(args, io) {
      const { type, stage } = args.options as Record<string, string | undefined>;
      return withApp(args, async (app) => {
        const report = await call(app, 'ideas:import', {
          path: resolve(args.positionals[0] as string),
          ...(type ? { type } : {}),
          ...(stage ? { stage } : {}),
        });
        print(io, args.options.json === true, report, () => importText(report));
        // Every note was tried; a failed one still makes the exit code say so.
        return report.errors.length > 0 ? 1 : 0;
      });
    },
  },
  {
    spec: {
      name: 'compare',
      summary: 'Two to four ideas side by side: scores, strengths, weaknesses, shared cruxes.',
      usage: 'compare SLUG,SLUG[,SLUG[,SLUG]] --workspace WS [--json]',
      positionals: ['SLUGS'],
      options: { workspace: workspaceOption, json: jsonOption },
    },
    run(args, io) {
      const slugs = (args.positionals[0] as string)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (slugs.length < 2 || slugs.length > 4)
        throw new UserError(`compare takes two to four ideas separated by commas, not ${slugs.length}`);
      return withApp(args, async (app) => {
        const view = await call(app, 'ideas:compare', { slugs });
        print(io, args.options.json === true, view, () => comparisonText(view));
        return 0;
      });
    },
  },
];
