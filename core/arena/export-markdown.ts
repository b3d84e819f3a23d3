import { arenaTranscript } from './live/transcript';
import { arenaResult } from './result';
import type { ArenaState } from './state';

/** What an export names beside the arena itself: its run and where it stands. */
export interface ArenaExportMeta {
  id: string;
  ideaSlug: string | null;
  status: string;
  createdAt: string;
  provider: string;
  costUsd: number;
  /** The embedding endpoint's model, when the measure was `embedding`. */
  embeddingModel?: string | null;
}

const yaml = (text: string) => JSON.stringify(text);
const name = (state: ArenaState, id: string) => {
  const a = state.agents.find((x) => x.id === id);
  return a && a.name !== id ? `${a.name} [${id}]` : id;
};

/**
 * An arena as a Markdown document, for export (and from it HTML and PDF): its result first — outcome,
 * the judge's ranking and scores, the agreement after each revision round with its measure named,
 * the vote (and the first vote, after a challenge), the hollow-consensus checks, Elo and vote
 * calibration — then the whole transcript in the order things happened. The frontmatter names it.
 */
export function arenaMarkdown(state: ArenaState, meta: ArenaExportMeta): string {
  const result = arenaResult(state);
  const lines = [
    '---',
    'kind: arena-transcript',
    `arena: ${yaml(meta.id)}`,
    `idea: ${yaml(meta.ideaSlug ?? '')}`,
    `status: ${yaml(meta.status)}`,
    `created: ${yaml(meta.createdAt)}`,
    '---',
    '',
    `# ${state.topic}`,
    '',
    `Arena ${meta.id} · ${meta.status}${result ? ` · ${result.outcome}` : ''} · ${meta.provider} · ${state.calls} answers · $${meta.costUsd.toFixed(4)}`,
    '',
    `Agents: ${state.agents.map((a) => name(state, a.id)).join(', ')}; judge: ${state.judge}.`,
  ];
  if (state.champions)
    lines.push(
      '',
      `A tournament meeting: ${Object.entries(state.champions)
        .map(([agent, idea]) => `${name(state, agent)} champions ${idea}`)
        .join('; ')}. Elo below is the ideas'.`,
    );
  lines.push('', '## Result', '');
  if (!result) {
    lines.push(
      state.stopped
        ? `No outcome: ${state.stopped.status} (${state.stopped.reason}).`
        : `No outcome yet: the arena is at its ${state.stage.kind} stage.`,
    );
  } else {
    lines.push(`**${result.outcome}**${result.earlyConsensus ? ', converged early' : ''}.`, '');
    lines.push('| rank | agent | judge score | Elo before → after | vote Brier |', '| --- | --- | --- | --- | --- |');
    for (const [i, a] of result.judge.ranking.entries())
      lines.push(
        `| ${i + 1} | ${name(state, a)} | ${result.judge.scores[a]} | ${result.elo.before[a]} → ${result.elo.after[a]} | ${result.voteBrier[a] ?? '—'} |`,
      );
    const tally = (t: Record<string, number>) =>
      Object.entries(t)
        .map(([a, n]) => `${a} ${n}`)
        .join(', ');
    lines.push(
      '',
      `Vote: ${tally(result.consensus.tally)} (${result.consensus.level}${result.consensus.reached ? ', consensus' : ', no consensus'}).`,
    );
    if (result.firstVote)
      lines.push(`First vote, before the challenge: ${tally(result.firstVote.tally)} (${result.firstVote.level}).`);
    if (result.hollow)
      lines.push(
        result.hollow.detected
          ? `Hollow consensus: ${result.hollow.reasons.join(', ')} (adopted share ${result.hollow.adoptionShare ?? '—'}, evidence share ${result.hollow.evidenceShare ?? '—'}${result.hollow.afterChallenge ? `; after the challenge: ${result.hollow.afterChallenge}` : ''}).`
          : 'Hollow-consensus check: nothing found.',
      );
    const c = result.counters;
    lines.push(
      `Counters: ${c.calls} answers, ${c.critiques} critiques, ${c.changes} changes (${c.adoptions} adopted), ${c.extendedRounds} extended round(s).`,
    );
  }
  if (state.convergence.length > 0) {
    const model = meta.embeddingModel ? ` (${meta.embeddingModel})` : '';
    lines.push('', '| after round | agreement | measure |', '| --- | --- | --- |');
    for (const p of state.convergence)
      lines.push(`| ${p.round} | ${p.score.toFixed(4)} | ${p.measure}${p.measure === 'embedding' ? model : ''} |`);
    lines.push(
      '',
      `Threshold ${state.config.convergenceThreshold}; a lexical score measures shared wording, not meaning.`,
    );
  }
  lines.push('', '## Transcript');
  arenaTranscript(state).forEach((line, i) => {
    const [first, ...rest] = line.text.split('\n');
    lines.push('', `### ${i + 1}. ${line.author === 'arena' ? 'Arena' : name(state, line.author)}: ${first}`);
    const body = rest.join('\n').trim();
    if (body !== '') lines.push('', body);
  });
  return `${lines.join('\n')}\n`;
}
