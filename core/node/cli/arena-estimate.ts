import { SIMILARITY_MEASURES, type SimilarityMeasure } from '../../arena/config';
import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import type { ParsedArgs } from './args';
import { providerOf } from './common';
import { costLine } from './cost-line';
import type { CliIo } from './io';

const list = (value: unknown) =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** `arena --estimate …`: what the arena would likely cost (the `arenas:estimate` channel); starts nothing. */
export async function arenaEstimate(args: ParsedArgs, io: CliIo): Promise<number> {
  const idea = args.options.idea as string | undefined;
  const topic = args.options.topic as string | undefined;
  if (idea === undefined && topic === undefined) throw new UserError('arena: give --idea SLUG or --topic T');
  const similarity = args.options.similarity as string | undefined;
  if (similarity !== undefined && !SIMILARITY_MEASURES.includes(similarity as SimilarityMeasure))
    throw new UserError(`--similarity must be one of ${SIMILARITY_MEASURES.join(', ')}`);
  const budget = args.options.budget === undefined ? undefined : Number(args.options.budget);
  if (budget !== undefined && !(budget >= 0))
    throw new UserError(`--budget must be a number of USD, not "${args.options.budget}"`);
  const estimate = await withApp(args, (app) =>
    call(app, 'arenas:estimate', {
      ...(idea !== undefined ? { ideaSlug: idea } : {}),
      ...(topic !== undefined ? { topic } : {}),
      agents: list(args.options.agents),
      ...(args.options.judge !== undefined ? { judge: String(args.options.judge) } : {}),
      trickster: args.options.trickster === true,
      ...(similarity !== undefined ? { similarity: similarity as SimilarityMeasure } : {}),
      provider: providerOf(args),
      ...(budget !== undefined ? { budgetUsd: budget } : {}),
    }),
  );
  io.out(args.options.json ? JSON.stringify(estimate, null, 2) : costLine(estimate));
  return 0;
}
