import { type ArenaState, agentIds } from '../state';

/** The arena's readable transcript, round by round: who proposed, critiqued, revised, voted and judged what. */
export function arenaTranscript(state: ArenaState): { author: string; text: string }[] {
  const lines: { author: string; text: string }[] = [];
  const rounds = [...new Set(Object.values(state.proposals).flatMap((vs) => vs.map((v) => String(v.round))))];
  for (const round of rounds) {
    for (const agent of agentIds(state)) {
      const version = state.proposals[agent]?.find((v) => String(v.round) === round);
      if (!version) continue;
      const what = round === '1' ? 'proposal' : round === '6' ? 'refinement' : `revision ${round}`;
      lines.push({ author: agent, text: `${what}: ${version.title} — ${version.summary}` });
    }
    if (round === '1')
      for (const c of state.critiques)
        lines.push({ author: c.author, text: `critique ${c.id} of ${c.target} (${c.severity}): ${c.text}` });
    const score = state.convergence.find((c) => String(c.round) === round);
    if (score) lines.push({ author: 'arena', text: `agreement ${score.score.toFixed(4)} (${score.measure})` });
  }
  for (const vote of state.votes) {
    for (const [agent, b] of Object.entries(vote.ballots))
      lines.push({
        author: agent,
        text: `${vote.pass === 'T' ? 're-vote' : 'vote'}: ${b.vote} (${b.confidence}) — ${b.reason}`,
      });
    lines.push({ author: 'arena', text: `tally ${JSON.stringify(vote.outcome.tally)}: ${vote.outcome.level}` });
  }
  if (state.hollow?.detected)
    lines.push({ author: 'arena', text: `hollow consensus: ${state.hollow.reasons.join(', ')}` });
  if (state.challenge)
    lines.push({ author: 'trickster', text: `challenge to ${state.challenge.target}: ${state.challenge.challenge}` });
  for (const j of state.judgments)
    lines.push({ author: state.judge, text: `judgment (${j.pass}): ${j.ranking.join(' > ')} — ${j.summary}` });
  if (state.outcome) lines.push({ author: 'arena', text: `outcome: ${state.outcome}` });
  if (state.stopped) lines.push({ author: 'arena', text: `${state.stopped.status}: ${state.stopped.reason}` });
  return lines;
}
