import type { Change } from '../answers';
import { type ArenaPass, type ArenaState, agentIds, type ProposalVersion, type VoteRound } from '../state';

type Line = { author: string; text: string };

/** A proposal version in full: what the researcher reads and what a transcript search finds. */
function versionText(what: string, v: ProposalVersion): string {
  const claims = v.claims
    .map((c) => {
      const evidence = c.evidence.length
        ? c.evidence.map((e) => `${e.source}: "${e.quote}"`).join('; ')
        : 'no evidence';
      return `- ${c.id}: ${c.text} (${evidence})`;
    })
    .join('\n');
  return `${what}: ${v.title} — ${v.summary}\n\n${v.body}\n\nClaims:\n${claims}\nConfidence: ${v.confidence}`;
}

function changeText(c: Change): string {
  const b = c.because;
  const why = 'critique' in b ? `answering ${b.critique}` : 'adopted' in b ? `adopted from ${b.adopted}` : b.own;
  return `- ${c.what} (${why})`;
}

/**
 * The arena's readable transcript, in the order things happened: each proposal and revision in full
 * (with its claims, its changes and the critiques it answered), the critiques, the agreement after
 * each revision round with its measure, the votes and their reasons, the hollow check, the trickster's
 * challenge, the judge's scores and reasons, the outcome.
 */
export function arenaTranscript(state: ArenaState): Line[] {
  const lines: Line[] = [];
  if (state.champions)
    lines.push({
      author: 'arena',
      text: `a tournament meeting: ${Object.entries(state.champions)
        .map(([agent, idea]) => `${agent} champions ${idea}`)
        .join(', ')}`,
    });
  const versions = (round: string) => {
    for (const agent of agentIds(state)) {
      const v = state.proposals[agent]?.find((p) => String(p.round) === round);
      if (!v) continue;
      const what = round === '1' ? 'proposal' : round === '6' ? 'refinement' : `revision ${round}`;
      const record = state.revisions.find((r) => r.agent === agent && String(r.round) === round);
      const changes = record?.changes.length ? `\n\nChanges:\n${record.changes.map(changeText).join('\n')}` : '';
      const addressed = record?.addressed.length ? `\nAnswers: ${record.addressed.join(', ')}` : '';
      lines.push({ author: agent, text: `${versionText(what, v)}${changes}${addressed}` });
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
    if (!j) return;
    const scores = j.ranking
      .map((a) => `- ${a}: ${j.scores[a]?.overall ?? '—'} — ${j.scores[a]?.reasons ?? ''}`)
      .join('\n');
    lines.push({ author: state.judge, text: `judgment: ${j.ranking.join(' > ')} — ${j.summary}\n\n${scores}` });
  };

  versions('1');
  for (const c of state.critiques)
    lines.push({
      author: c.author,
      text: `critique ${c.id} of ${c.target}${c.claim ? ` on ${c.claim}` : ''} (${c.severity}): ${c.text}${c.fix ? `\nFix: ${c.fix}` : ''}`,
    });
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
  // Who left, and why (the reason names the answer that could not be had, and so its round).
  for (const [agent, reason] of Object.entries(state.withdrawn ?? {}))
    lines.push({ author: 'arena', text: `${agent} left the arena: ${reason}` });
  if (state.outcome) lines.push({ author: 'arena', text: `outcome: ${state.outcome}` });
  if (state.stopped) lines.push({ author: 'arena', text: `${state.stopped.status}: ${state.stopped.reason}` });
  return lines;
}
