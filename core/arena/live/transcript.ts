import { type ArenaPass, type ArenaState, agentIds, type VoteRound } from '../state';

type Line = { author: string; text: string };

/** The arena's readable transcript, in the order things happened: who proposed, critiqued, revised, voted and judged what. */
export function arenaTranscript(state: ArenaState): Line[] {
  const lines: Line[] = [];
  const versions = (round: string) => {
    for (const agent of agentIds(state)) {
      const v = state.proposals[agent]?.find((p) => String(p.round) === round);
      if (!v) continue;
      const what = round === '1' ? 'proposal' : round === '6' ? 'refinement' : `revision ${round}`;
      lines.push({ author: agent, text: `${what}: ${v.title} — ${v.summary}` });
    }
    const score = state.convergence.find((c) => String(c.round) === round);
    if (score)
      lines.push({
        author: 'arena',
        text: `agreement after round ${round}: ${score.score.toFixed(4)} (${score.measure})`,
      });
  };
  const voted = (vote: VoteRound) => {
    for (const [agent, b] of Object.entries(vote.ballots))
      lines.push({
        author: agent,
        text: `${vote.pass === 'T' ? 're-vote' : 'vote'}: ${b.vote} (${b.confidence}) — ${b.reason}`,
      });
    lines.push({ author: 'arena', text: `tally ${JSON.stringify(vote.outcome.tally)}: ${vote.outcome.level}` });
  };
  const judged = (pass: ArenaPass) => {
    const j = state.judgments.find((x) => x.pass === pass);
    if (j) lines.push({ author: state.judge, text: `judgment: ${j.ranking.join(' > ')} — ${j.summary}` });
  };

  versions('1');
  for (const c of state.critiques)
    lines.push({ author: c.author, text: `critique ${c.id} of ${c.target} (${c.severity}): ${c.text}` });
  const votes = state.votes;
  if (votes.length === 0) for (const round of ['3', '4', '5', '6']) versions(round);
  votes.forEach((vote, i) => {
    if (vote.pass === 'main') for (const round of ['3', '4', '5', '6']) versions(round);
    else if (vote.pass === 'T') {
      if (state.challenge)
        lines.push({
          author: 'trickster',
          text: `challenge to ${state.challenge.target}: ${state.challenge.challenge}`,
        });
      versions('T');
    } else versions(vote.pass);
    voted(vote);
    if (state.hollow && vote.outcome.reached && !votes.slice(0, i).some((v) => v.outcome.reached) && vote.pass !== 'T')
      lines.push({
        author: 'arena',
        text: state.hollow.detected
          ? `hollow consensus: ${state.hollow.reasons.join(', ')}`
          : 'the consensus is not hollow',
      });
    if (votes[i + 1]?.pass !== 'T') judged(vote.pass === 'T' ? (votes[i - 1]?.pass ?? 'main') : vote.pass);
  });
  // An extended round under way: its revisions come after the last judgment.
  const pending = `X${state.extendedRounds}`;
  if (state.extendedRounds > 0 && !votes.some((v) => v.pass === pending)) versions(pending);
  if (state.outcome) lines.push({ author: 'arena', text: `outcome: ${state.outcome}` });
  if (state.stopped) lines.push({ author: 'arena', text: `${state.stopped.status}: ${state.stopped.reason}` });
  return lines;
}
