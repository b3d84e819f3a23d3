import { costLine } from './cost-line';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MODES, type Mode, runEvaluationReplay, ScriptError } from '../../evaluation';
import { ClassificationService } from '../evaluations/classification-service';
import { EXPORT_FORMATS, type ExportFormat, exportDocument, writeExport } from '../export/export-document';
import { arenaExportMarkdown } from '../arena/arena-export';
import { evaluationTranscriptMarkdown } from '../export/evaluation-transcript';
import { call, withApp } from './app-session';
import { type DevelopmentResult, DevelopmentService } from '../evaluations/development-service';
import { DEFAULT_EVALUATION_BUDGET, EvaluationService } from '../evaluations/evaluation-service';
import { loadTaxonomy } from '../taxonomy-loader';
import { UserError } from '../workspace/workspace';
import { jsonOption, openWorkspace, providerOf, providerOption, seedOf, seedOption, workspaceOption } from './common';
import { ScriptFileError } from './crux-commands';
import { configOption, evaluationConfigOf, optionOption } from './evaluations-commands';
import type { Command } from './workspace-commands';

const json = jsonOption;
const workspace = workspaceOption;
const open = openWorkspace;

export const evaluationCommands: Command[] = [
  {
    spec: {
      name: 'evaluate',
      summary:
        'Evaluate an idea on the 30 criteria (evaluators, red team, arbiter, synthesis) and lock a final synthesis.',
      usage:
        'evaluate (SLUG --workspace DIR [--mode quick|standard|deep] [--provider P] [--config FILE] [--option NAME=VALUE]… [--baseline] [--estimate] | --resume ID --workspace DIR | --replay FILE) [--json]',
      positionals: ['SLUG?'],
      options: {
        workspace,
        mode: {
          type: 'string',
          value: 'MODE',
          description: 'quick (1 round, 2 red-teamers), standard (3, 3; default) or deep (5, 6)',
        },
        provider: providerOption,
        seed: seedOption,
        replay: {
          type: 'string',
          value: 'FILE',
          description: 'run an evaluation script (JSONL) instead, and print its document',
        },
        resume: { type: 'string', value: 'ID', description: 'continue an interrupted evaluation from its checkpoint' },
        baseline: {
          type: 'boolean',
          description:
            'also score the idea in a single pass (no red team) and show what the debate changed, and both costs',
        },
        estimate: { type: 'boolean', description: 'only say what it would likely cost, and at worst; start nothing' },
        config: configOption,
        option: optionOption,
        json,
      },
    },
    async run(args, io) {
      const replay = args.options.replay as string | undefined;
      if (replay !== undefined) {
        if (args.positionals.length > 0) throw new UserError('evaluate: give an idea or --replay FILE, not both');
        let text: string;
        try {
          text = readFileSync(resolve(replay), 'utf8');
        } catch {
          throw new UserError(`cannot read ${resolve(replay)}`);
        }
        try {
          io.out(JSON.stringify(runEvaluationReplay(text, loadTaxonomy(null)), null, 2));
        } catch (error) {
          if (error instanceof ScriptError) throw new ScriptFileError(`${resolve(replay)}: ${error.message}`);
          throw error;
        }
        return 0;
      }
      const resumeId = args.options.resume as string | undefined;
      if (resumeId !== undefined) {
        const ws = open(args);
        try {
          const run = await new EvaluationService(ws).resume(resumeId);
          io.out(
            args.options.json
              ? JSON.stringify(run.document, null, 2)
              : `Resumed and locked ${run.document.evaluationId} (${run.document.lockReason}): overall ${run.document.composites.overallScore.toFixed(2)}`,
          );
          return 0;
        } finally {
          ws.close();
        }
      }
      const slug = args.positionals[0];
      if (!slug) throw new UserError('evaluate: which idea? (evaluate SLUG, or --replay FILE, or --resume ID)');
      const mode = ((args.options.mode as string | undefined) ?? 'standard') as Mode;
      if (!MODES.includes(mode)) throw new UserError(`--mode must be one of ${MODES.join(', ')}`);
      const request = evaluationConfigOf(args, slug);
      const provider = request.provider;
      const ws = open(args);
      try {
        // Every run that calls a model is priced first; `--estimate` stops there.
        const estimate = new EvaluationService(ws).estimate(slug, {
          mode: request.mode,
          provider,
          budgetUsd: request.budgetUsd ?? DEFAULT_EVALUATION_BUDGET,
        });
        if (args.options.estimate) {
          io.out(args.options.json ? JSON.stringify(estimate, null, 2) : costLine(estimate));
          return 0;
        }
        if (!args.options.json && !estimate.cannotRun) io.err(`${costLine(estimate)}\nRunning…`);
        const run = await new EvaluationService(ws).evaluate(slug, {
          mode: request.mode,
          provider,
          ...(request.seed !== undefined ? { seed: request.seed } : {}),
          ...(request.budgetUsd !== undefined ? { budgetUsd: request.budgetUsd } : {}),
          ...(request.timeLimitMinutes !== undefined ? { timeLimitMs: request.timeLimitMinutes * 60_000 } : {}),
          ...(args.options.baseline ? { baseline: true } : {}),
          ...(request.options ? { options: request.options } : {}),
        });
        if (args.options.json)
          io.out(JSON.stringify(run.baseline ? { ...run.document, baseline: run.baseline } : run.document, null, 2));
        else {
          const d = run.document;
          io.out(
            [
              ...(provider === 'simulated'
                ? [
                    `Simulated evaluation: every answer was produced offline by the simulator (seed ${seedOf(args) ?? 1}), not by a model.`,
                  ]
                : []),
              `${d.ideaTitle}: ${d.narrative.recommendation}, overall ${d.composites.overallScore.toFixed(2)} / 10, confidence ${d.composites.overallConfidence.toFixed(2)}`,
              `Locked by ${d.lockReason} after ${d.rounds} round(s); red-team survival ${d.composites.redTeamSurvivalRate === null ? '—' : `${Math.round(d.composites.redTeamSurvivalRate * 100)}%`}.`,
              `Written: ${run.written.join(', ')} (record: ${run.recordPath})`,
              ...run.conflicts.map((c) => `Kept your edited file; the new version is ${c}`),
              ...(run.baseline
                ? [
                    `Single pass (no red team): overall ${run.baseline.baselineOverall.toFixed(2)} for $${run.baseline.baselineCostUsd.toFixed(4)}; the debate: ${run.baseline.debatedOverall.toFixed(2)} for $${run.baseline.debateCostUsd.toFixed(4)}.`,
                    ...run.baseline.criteria
                      .filter((c) => c.delta !== 0)
                      .map(
                        (c) =>
                          `  ${c.criterion}: ${c.baselineScore} → ${c.debatedScore}${c.changedBy.length ? ` (${c.changedBy.map((x) => `${x.persona}, round ${x.round}`).join('; ')})` : ''}`,
                      ),
                  ]
                : []),
            ].join('\n'),
          );
        }
        return 0;
      } finally {
        ws.close();
      }
    },
  },
  {
    spec: {
      name: 'dispute',
      summary:
        'Dispute one criterion of a locked evaluation: one targeted round on it, a new evaluation that supersedes the old.',
      usage: 'dispute SLUG --criterion ID --reason "…" --workspace DIR [--json]',
      positionals: ['SLUG'],
      options: {
        workspace,
        criterion: {
          type: 'string',
          value: 'ID',
          description: 'the criterion id (see taxonomy/evaluation-criteria.md)',
        },
        reason: { type: 'string', value: 'TEXT', description: 'why the score is wrong (at least 50 characters)' },
        seed: seedOption,
        json,
      },
    },
    async run(args, io) {
      const criterion = args.options.criterion as string | undefined;
      const reason = args.options.reason as string | undefined;
      if (!criterion || !reason) throw new UserError('dispute: give --criterion ID and --reason "…"');
      const ws = open(args);
      try {
        const seed = seedOf(args);
        const run = await new EvaluationService(ws).dispute(
          args.positionals[0] as string,
          criterion,
          reason,
          seed !== undefined ? { seed } : {},
        );
        if (args.options.json) io.out(JSON.stringify(run.document, null, 2));
        else {
          const s = run.document.scores.find((x) => x.criterion === criterion);
          io.out(
            `${criterion}: ${s?.initialScore} → ${s?.finalScore} after one targeted round; overall ${run.document.composites.overallScore.toFixed(2)}. The disputed evaluation ${run.document.supersedes} stays as it was.`,
          );
        }
        return 0;
      } finally {
        ws.close();
      }
    },
  },
  {
    spec: {
      name: 'develop',
      summary: 'Ask the questions an idea is missing (recorded in its development.md), or record an answer.',
      usage: 'develop SLUG --workspace DIR [--provider P] [--answer N "text"] [--json]',
      positionals: ['SLUG', 'TEXT?'],
      options: {
        workspace,
        answer: {
          type: 'string',
          value: 'N',
          description: 'record the answer to question N (the text follows the number)',
        },
        provider: providerOption,
        seed: seedOption,
        json,
      },
    },
    async run(args, io) {
      const [slug, text] = args.positionals as [string, string | undefined];
      const ws = open(args);
      try {
        const service = new DevelopmentService(ws);
        let result: DevelopmentResult;
        if (args.options.answer !== undefined) {
          const n = Number(args.options.answer);
          if (!Number.isInteger(n) || n < 1)
            throw new UserError(`--answer takes a question number, not "${String(args.options.answer)}"`);
          if (text === undefined)
            throw new UserError('develop: the answer text goes after the number: --answer N "text"');
          result = service.answer(slug, n, text);
        } else {
          if (text !== undefined)
            throw new UserError(`develop: unexpected "${text}" (to answer a question: --answer N "text")`);
          const provider = providerOf(args);
          result = await service.develop(slug, {
            provider,
            ...(seedOf(args) !== undefined ? { seed: seedOf(args) as number } : {}),
          });
        }
        if (args.options.json) io.out(JSON.stringify(result, null, 2));
        else {
          const answered = result.questions.filter((q) => q.answer !== null).length;
          io.out(
            [
              ...result.questions.map(
                (q) =>
                  `${String(q.number).padStart(2)}. ${q.answer === null ? '[ ]' : '[x]'} ${q.question}${q.gap ? `  (${q.gap})` : ''}${result.added.includes(q.number) ? '  ← new' : ''}`,
              ),
              `${answered} of ${result.questions.length} answered. Answer with: npm run cli -- develop ${slug} --answer N "text"`,
              ...(result.conflict
                ? [`development.md changed while this ran; yours is kept and the app's version is ${result.path}`]
                : []),
            ].join('\n'),
          );
        }
        return 0;
      } finally {
        ws.close();
      }
    },
  },
  {
    spec: {
      name: 'classify',
      summary: "Set an idea's type, tags and relationships to other ideas (written into its README's frontmatter).",
      usage: 'classify SLUG --workspace DIR [--provider P] [--json]',
      positionals: ['SLUG'],
      options: {
        workspace,
        provider: providerOption,
        seed: seedOption,
        json,
      },
    },
    async run(args, io) {
      const provider = providerOf(args);
      const ws = open(args);
      try {
        const result = await new ClassificationService(ws).classify(args.positionals[0] as string, {
          provider,
          ...(seedOf(args) !== undefined ? { seed: seedOf(args) as number } : {}),
        });
        if (args.options.json) io.out(JSON.stringify(result, null, 2));
        else {
          const c = result.classification;
          io.out(
            [
              `type: ${c.type}`,
              `tags: ${c.tags.join(', ')}${result.freeTags.length ? ` (free: ${result.freeTags.join(', ')})` : ''}`,
              ...c.relationships.map((r) => `${r.type} → ${r.target} (${r.strength}): ${r.reason}`),
              result.conflict
                ? `The README changed meanwhile; yours is kept and the classified version is ${result.path}`
                : `Written to ${result.path}`,
            ].join('\n'),
          );
        }
        return 0;
      } finally {
        ws.close();
      }
    },
  },
  {
    spec: {
      name: 'export',
      summary:
        "Export an idea's synthesis (or a debate's, an evaluation's or an arena's transcript) as Markdown, self-contained HTML or PDF.",
      usage:
        'export (SLUG | --debate ID | --evaluation ID | --arena ID) --format md|html|pdf --out FILE --workspace DIR [--json]',
      positionals: ['SLUG?'],
      options: {
        workspace,
        debate: { type: 'string', value: 'ID', description: 'export this debate transcript instead of a synthesis' },
        evaluation: {
          type: 'string',
          value: 'ID',
          description: "export this evaluation's transcript instead of a synthesis",
        },
        arena: {
          type: 'string',
          value: 'ID',
          description: "export this arena's result and transcript instead of a synthesis",
        },
        format: {
          type: 'string',
          value: 'FORMAT',
          description: 'md, html (inline CSS, nothing fetched) or pdf (printed by headless Chromium)',
        },
        out: { type: 'string', value: 'FILE', description: 'where to write it (never overwritten)' },
        json,
      },
    },
    async run(args, io) {
      const format = args.options.format as string | undefined;
      if (!format || !EXPORT_FORMATS.includes(format as ExportFormat))
        throw new UserError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
      const out = args.options.out as string | undefined;
      if (!out) throw new UserError('export: where to? (--out FILE)');
      const arena = args.options.arena as string | undefined;
      if (arena !== undefined) {
        if (args.positionals[0] || args.options.debate || args.options.evaluation)
          throw new UserError('export: name one document (SLUG, --debate ID, --evaluation ID or --arena ID)');
        const ws = open(args);
        try {
          const { markdown, rel } = arenaExportMarkdown(ws, arena);
          const result = await writeExport(markdown, rel, format as ExportFormat, resolve(out));
          if (args.options.json) io.out(JSON.stringify(result, null, 2));
          else io.out(`Wrote ${result.path} (${result.bytes} bytes)`);
          return 0;
        } finally {
          ws.close();
        }
      }
      const evaluation = args.options.evaluation as string | undefined;
      if (evaluation !== undefined) {
        if (args.positionals[0] || args.options.debate)
          throw new UserError('export: name one document (SLUG, --debate ID or --evaluation ID)');
        // The transcript as the transcripts view reads it, through the app's own handler.
        const result = await withApp(args, async (app) => {
          const transcript = await call(app, 'transcripts:get', { kind: 'evaluation', id: evaluation });
          return writeExport(
            evaluationTranscriptMarkdown(transcript),
            `evaluation ${evaluation}`,
            format as ExportFormat,
            resolve(out),
          );
        });
        if (args.options.json) io.out(JSON.stringify(result, null, 2));
        else io.out(`Wrote ${result.path} (${result.bytes} bytes)`);
        return 0;
      }
      const ws = open(args);
      try {
        const result = await exportDocument(
          ws,
          {
            ...(args.positionals[0] ? { slug: args.positionals[0] } : {}),
            ...(args.options.debate ? { debate: args.options.debate as string } : {}),
          },
          format as ExportFormat,
          resolve(out),
        );
        if (args.options.json) io.out(JSON.stringify(result, null, 2));
        else io.out(`Wrote ${result.path} (${result.bytes} bytes)`);
        return 0;
      } finally {
        ws.close();
      }
    },
  },
  {
    spec: {
      name: 'leaderboard',
      summary:
        'Ideas ranked by overall score, with category scores, confidence, red-team survival, stage and staleness.',
      usage: 'leaderboard --workspace DIR [--personas] [--json]',
      positionals: [],
      options: {
        workspace,
        personas: {
          type: 'boolean',
          description: 'rank the agents instead: red-team personas and evaluators by arbiter rulings',
        },
        json,
      },
    },
    run(args, io) {
      const ws = open(args);
      try {
        if (args.options.personas) {
          const ratings = new EvaluationService(ws).personaRatings();
          if (args.options.json) io.out(JSON.stringify({ personas: ratings }, null, 2));
          else
            io.out(
              ratings
                .map(
                  (r, i) =>
                    `${String(i + 1).padStart(3)}. ${r.winRate.toFixed(2)}  ${r.id.padEnd(24)} ${r.role.padEnd(9)} ${r.wins}W ${r.draws}D ${r.losses}L`,
                )
                .join('\n') || 'no rulings yet',
            );
          return 0;
        }
        const rows = new EvaluationService(ws).leaderboard();
        if (args.options.json) io.out(JSON.stringify({ ideas: rows }, null, 2));
        else {
          io.out(
            rows
              .map(
                (r) =>
                  `${String(r.rank).padStart(3)}. ${(r.overallScore === null ? '  —  ' : r.overallScore.toFixed(2)).padEnd(6)} ${r.slug.padEnd(32)} ${r.stage.padEnd(10)}${r.stale ? ' STALE' : ''}`,
              )
              .join('\n'),
          );
        }
        return 0;
      } finally {
        ws.close();
      }
    },
  },
];
