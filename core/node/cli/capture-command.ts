import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type CapturePlacement,
  needsChoice,
  offeredPlacements,
  offersChoice,
  PLACEMENT_WORDS,
  parsePlacement,
  placementWords,
} from '../../capture/choice';
import type { CaptureClassification } from '../../capture/decision';
import { replayCapture } from '../../capture/replay';
import { ScriptError } from '../../text/script-lines';
import { type CaptureSource, CaptureService, type PlacedCapture } from '../capture/capture-service';
import { PROVIDERS, type ProviderName } from '../debates/providers';
import { nodeHasher } from '../hasher';
import { UserError } from '../workspace/workspace';
import { jsonOption, openWorkspace, seedOf, workspaceOption } from './common';
import type { CliIo } from './io';
import type { Command } from './workspace-commands';

/**
 * `capture`: a title and text, or a file, is classified against the library first (NEW, EXISTING or
 * AMBIGUOUS: docs/capture.md) and then placed. NEW is written at once; otherwise the command asks on
 * a terminal, takes `--as`, or (with nobody to ask) stops naming the candidates and writes nothing.
 */

const score = (n: number) => n.toFixed(2);

function describe(c: CaptureClassification): string[] {
  const named = c.candidates.map((x) => `${x.slug} ${score(x.score)}`).join(', ');
  const head =
    c.duplicateOf !== null
      ? `EXISTING: this exact text was captured into ${c.duplicateOf} before`
      : c.decision === 'EXISTING'
        ? `EXISTING: it belongs to ${c.slug}`
        : c.decision === 'AMBIGUOUS'
          ? `AMBIGUOUS: it may belong to ${c.candidates.map((x) => x.slug).join(' or ')}`
          : 'NEW: a new idea';
  return [
    `${head} (${c.by === 'model' ? 'the model' : c.by === 'identity' ? 'its identity' : 'lexical'}: ${c.reason})`,
    ...(named ? [`closest ideas: ${named}`] : []),
    ...(c.inspiredBy && c.decision !== 'EXISTING'
      ? [`close but distinct: --as inspired:${c.inspiredBy} links it`]
      : []),
  ];
}

function choiceLabel(p: CapturePlacement, c: CaptureClassification): string {
  const title = (slug: string) => c.candidates.find((x) => x.slug === slug)?.title ?? slug;
  if (p.as === 'new') return 'a new idea';
  if (p.as === 'existing') return `add it to ${p.slug} ("${title(p.slug)}")`;
  return `a new idea, inspired by ${p.slug}`;
}

/** The refusal when nobody can be asked: what it may be, and the `--as` that would place it. */
function needsAnAnswer(c: CaptureClassification): UserError {
  const offered = offeredPlacements(c).map((p) => `--as ${placementWords(p)}`);
  const what =
    c.duplicateOf !== null
      ? `this exact text was captured into "${c.duplicateOf}" before`
      : c.decision === 'EXISTING'
        ? `this text belongs to "${c.slug}" (${score(c.candidates[0]?.score ?? 0)})`
        : `this text may belong to an idea you have: ${c.candidates.map((x) => `"${x.slug}" (${score(x.score)})`).join(', ')}`;
  return new UserError(`capture: ${what}; nothing was written. Choose with ${offered.join(', ')}`);
}

async function askChoice(
  io: CliIo,
  ask: NonNullable<CliIo['ask']>,
  c: CaptureClassification,
): Promise<CapturePlacement | null> {
  const offered = offeredPlacements(c);
  io.out(offered.map((p, i) => `  ${i + 1}. ${choiceLabel(p, c)}`).join('\n'));
  for (;;) {
    const answer = await ask(`Choose 1-${offered.length} (Enter: 1, q: write nothing): `);
    if (answer === null || answer.trim().toLowerCase() === 'q') return null;
    const n = answer.trim() === '' ? 1 : Number(answer.trim());
    const chosen = Number.isInteger(n) ? offered[n - 1] : undefined;
    if (chosen) return chosen;
    io.out(`Type a number from 1 to ${offered.length}, or q.`);
  }
}

function placedLine(placed: PlacedCapture): string {
  if (placed.placed.as === 'existing') {
    if (!placed.written) return `${placed.slug} already holds this text: nothing was written`;
    return placed.conflict
      ? `The README of ${placed.slug} changed on disk meanwhile; it is kept and the version with the capture added is in ${placed.path}`
      : `Added to ${placed.slug} (${placed.path})`;
  }
  const linked = placed.placed.as === 'inspired' ? `, inspired by ${placed.placed.slug}` : '';
  return `Captured "${placed.idea?.title ?? placed.slug}" as ${placed.path}${linked}`;
}

function captureJson(c: CaptureClassification, placed: PlacedCapture | null, costUsd: number, repairs: string[]) {
  const { contentHash: _hash, ...idea } = placed?.idea ?? { contentHash: '' };
  return {
    slug: placed?.slug ?? null,
    path: placed?.path ?? null,
    conflict: placed?.conflict ?? false,
    idea: placed?.idea ? idea : null,
    placed: placed ? placementWords(placed.placed) : null,
    written: placed?.written ?? false,
    classification: c,
    costUsd,
    repairs,
  };
}

export const captureCommand: Command = {
  spec: {
    name: 'capture',
    summary:
      'Capture a title and text, or a file: classified against your ideas (new, existing, ambiguous), then placed.',
    usage:
      'capture --workspace DIR (--title T [--text X] | --file F) [--type TYPE] [--stage STAGE] [--tags a,b] [--as PLACE] [--check] [--provider NAME] [--json]\n       capture --replay FILE --workspace DIR [--json]',
    positionals: [],
    options: {
      workspace: workspaceOption,
      title: { type: 'string', value: 'T', description: 'the idea title' },
      text: { type: 'string', value: 'X', description: 'the idea text (markdown)' },
      file: {
        type: 'string',
        value: 'F',
        description: 'a file to capture (.md/.txt are placed by their text; any other becomes a new idea)',
      },
      type: { type: 'string', value: 'TYPE', description: 'idea type of a new idea (default research)' },
      stage: { type: 'string', value: 'STAGE', description: 'lifecycle stage of a new idea (default SPARK)' },
      tags: { type: 'string', value: 'a,b', description: 'comma-separated tags of a new idea' },
      as: { type: 'string', value: 'PLACE', description: `where it goes, without asking: ${PLACEMENT_WORDS}` },
      check: { type: 'boolean', description: 'only classify it: say where it belongs and write nothing' },
      provider: {
        type: 'string',
        value: 'NAME',
        description:
          'let a model decide among the closest ideas: simulated, anthropic or openai (default: no model, the lexical rule)',
      },
      seed: { type: 'string', value: 'N', description: 'seed of the simulator (default 1)' },
      replay: {
        type: 'string',
        value: 'FILE',
        description: 'replay a capture decision script (JSON Lines; docs/capture.md)',
      },
      json: jsonOption,
    },
  },
  async run(args, io) {
    const o = args.options as Record<string, string | boolean | undefined>;
    const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
    const [title, text, file, type, stage, tags, as, replay] = [
      'title',
      'text',
      'file',
      'type',
      'stage',
      'tags',
      'as',
      'replay',
    ].map(str);
    if (replay !== undefined) return replayScript(args, io, replay);
    if ((title === undefined) === (file === undefined)) {
      throw new UserError('capture: give either --title (with optional --text) or --file');
    }
    if (file !== undefined && text !== undefined) throw new UserError('capture: --text goes with --title, not --file');
    const placement = as === undefined ? null : parsePlacement(as);
    if (as !== undefined && placement === null) throw new UserError(`capture: --as is ${PLACEMENT_WORDS}, not "${as}"`);
    const provider = str('provider');
    if (provider !== undefined && !PROVIDERS.includes(provider as ProviderName))
      throw new UserError(`--provider must be one of ${PROVIDERS.join(', ')}`);
    const kind = { ...(type ? { type } : {}), ...(stage ? { stage } : {}) };
    const source: CaptureSource =
      file !== undefined
        ? { kind: 'file', path: resolve(file), ...kind }
        : {
            kind: 'text',
            title: title as string,
            text: text ?? '',
            ...kind,
            ...(tags
              ? {
                  tags: tags
                    .split(',')
                    .map((t) => t.trim())
                    .filter(Boolean),
                }
              : {}),
          };

    const ws = openWorkspace(args);
    try {
      const service = new CaptureService(ws);
      const seed = seedOf(args);
      const { classification, costUsd, repairs } = await service.classify(source, {
        ...(provider ? { provider: provider as ProviderName } : {}),
        ...(seed !== undefined ? { seed } : {}),
      });
      const report = (placed: PlacedCapture | null) => {
        if (o.json) io.out(JSON.stringify(captureJson(classification, placed, costUsd, repairs), null, 2));
        else {
          io.out(describe(classification).join('\n'));
          if (provider)
            io.out(`model call: $${costUsd.toFixed(4)}${repairs.length ? ` (read: ${repairs.join('; ')})` : ''}`);
          if (placed) io.out(placedLine(placed));
        }
      };
      if (o.check) {
        report(null);
        return 0;
      }
      let chosen = placement;
      if (chosen === null && !offersChoice(classification)) chosen = { as: 'new' };
      if (chosen === null && io.ask && !o.json) {
        io.out(describe(classification).join('\n'));
        chosen = await askChoice(io, io.ask, classification);
        if (chosen === null) {
          io.out('Nothing was written.');
          return 0;
        }
        const placed = service.place(source, chosen);
        io.out(placedLine(placed));
        return 0;
      }
      if (chosen === null && needsChoice(classification)) {
        if (o.json) io.out(JSON.stringify(captureJson(classification, null, costUsd, repairs), null, 2));
        throw needsAnAnswer(classification);
      }
      const placed = service.place(source, chosen ?? { as: 'new' });
      report(placed);
      return 0;
    } finally {
      ws.close();
    }
  },
};

/** `capture --replay FILE`: the decision a script describes, placed against its own library or the workspace's. */
function replayScript(args: Parameters<Command['run']>[0], io: CliIo, file: string): number {
  let script: string;
  try {
    script = readFileSync(resolve(file), 'utf8');
  } catch {
    throw new UserError(`no script at ${file}`);
  }
  const ws = openWorkspace(args);
  try {
    const result = replayCapture(script, { hasher: nodeHasher, library: new CaptureService(ws).library() });
    if (args.options.json) io.out(JSON.stringify(result, null, 2));
    else
      io.out(
        [
          `${result.decision} (${result.by})${result.slug ? `: ${result.slug}` : ''}`,
          `candidates: ${result.candidates.map((c) => `${c.slug} ${score(c.score)}`).join(', ') || 'none'}`,
          `offered: ${result.offered.join(', ')}`,
          `placed: ${result.placed ?? '(waiting for the researcher)'}`,
        ].join('\n'),
      );
    return 0;
  } catch (error) {
    if (error instanceof ScriptError) {
      io.err(`error: ${file}: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    ws.close();
  }
}
