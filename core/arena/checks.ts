import type {
  CritiqueAnswer,
  JudgeAnswer,
  ProposalAnswer,
  RevisionAnswer,
  SimilarityAnswer,
  TricksterAnswer,
  VoteAnswer,
} from './answers';
import { type JudgedAgreements, PAIR_JOIN, pairName, pairOfName } from './judged-agreements';
import { applyRevisionEdits, type RevisionEdits } from './revision-edits';
import { pairsOf } from './similarity';
import { type ArenaState, activeIds, agentIds, currentProposal, lastVote } from './state';

/**
 * What an answer's shape cannot say: the ids it names must exist, critiques must cover every other
 * proposal, a vote may not go to its own author. Each check returns the problems in words (none:
 * the answer fits the state). The state machine refuses an answer with a problem; the live request
 * puts the same problems to the model before that.
 */

function duplicateClaims(p: ProposalAnswer): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const c of p.claims) {
    if (seen.has(c.id)) problems.push(`claim id "${c.id}" is used twice`);
    seen.add(c.id);
  }
  return problems;
}

const knownAgent = (state: ArenaState, id: string) => agentIds(state).includes(id);

/** What is wrong with naming `id` as an agent still in the arena, or null. */
function notInPlay(state: ArenaState, id: string): string | null {
  if (!knownAgent(state, id)) return `unknown agent "${id}"`;
  if (id in (state.withdrawn ?? {})) return `${id} has left the arena`;
  return null;
}

export function proposalProblems(_state: ArenaState, _agent: string, answer: ProposalAnswer): string[] {
  return duplicateClaims(answer);
}

export function critiqueProblems(state: ArenaState, author: string, answer: CritiqueAnswer): string[] {
  const problems: string[] = [];
  answer.critiques.forEach((c, i) => {
    const where = `critiques[${i}]`;
    const gone = notInPlay(state, c.target);
    if (c.target === author) problems.push(`${where}: a critique of your own proposal (target "${author}")`);
    else if (gone) problems.push(`${where}: ${gone}`);
    else if (c.claim !== undefined && !currentProposal(state, c.target)?.claims.some((k) => k.id === c.claim))
      problems.push(`${where}: unknown claim id "${c.claim}" in ${c.target}'s proposal`);
  });
  const covered = new Set(answer.critiques.map((c) => c.target));
  const missed = activeIds(state).filter((a) => a !== author && !covered.has(a));
  if (missed.length > 0) problems.push(`no critique of ${missed.map((a) => `${a}'s`).join(', ')} proposal`);
  return problems;
}

export function revisionProblems(state: ArenaState, agent: string, answer: RevisionAnswer): string[] {
  return [
    ...duplicateClaims(answer),
    ...changeProblems(state, agent, answer.changes, (i) => `changes[${i}].because`),
    ...answer.addressed.flatMap((id, i) => ownCritiqueProblems(state, agent, id).map((p) => `addressed[${i}]: ${p}`)),
  ];
}

/** What is wrong with `id` as a critique of `agent`'s proposal that it answers. */
function ownCritiqueProblems(state: ArenaState, agent: string, id: string): string[] {
  const critique = state.critiques.find((c) => c.id === id);
  if (!critique) return [`unknown critique id "${id}"`];
  if (critique.target !== agent) return [`${id} is a critique of ${critique.target}'s proposal, not yours`];
  return [];
}

function changeProblems(
  state: ArenaState,
  agent: string,
  changes: RevisionAnswer['changes'],
  at: (i: number) => string,
): string[] {
  const problems: string[] = [];
  const critiques = new Map(state.critiques.map((c) => [c.id, c]));
  changes.forEach((change, i) => {
    const because = change.because;
    if ('critique' in because && !critiques.has(because.critique))
      problems.push(`${at(i)}: unknown critique id "${because.critique}"`);
    if ('adopted' in because) {
      // An idea may be taken up from an agent that has since left: its proposal is still there.
      if (because.adopted === agent) problems.push(`${at(i)}: adopted from yourself`);
      else if (!knownAgent(state, because.adopted)) problems.push(`${at(i)}: unknown agent "${because.adopted}"`);
    }
  });
  return problems;
}

/**
 * A live revision (edits to the agent's current version): what keeps the edits from applying, or
 * the revision they make from counting, each named by the field the model wrote (`answered.<id>`,
 * `changes[i]`), not by the whole revision's it becomes.
 */
export function revisionEditsProblems(state: ArenaState, agent: string, edits: RevisionEdits): string[] {
  const current = currentProposal(state, agent);
  if (!current) return [`${agent} has no proposal to revise`];
  const applied = applyRevisionEdits(current, edits);
  if (!applied.ok) return applied.problems;
  return [
    ...duplicateClaims(applied.value),
    ...Object.keys(edits.answered).flatMap((id) =>
      ownCritiqueProblems(state, agent, id).map(
        (p) => `answered."${id}": ${p}${p.endsWith('not yours') ? ' (a change because of it goes in changes)' : ''}`,
      ),
    ),
    // The changes the model listed, after those its answered critiques became.
    ...changeProblems(
      state,
      agent,
      applied.value.changes.slice(Object.keys(edits.answered).length),
      (i) => `changes[${i}]`,
    ),
  ];
}

/** The pairs an agreement answer names, each with where it stands in the answer: every pair in play once. */
function pairProblems(state: ArenaState, named: { at: string; a: string; b: string; which: [string, string] }[]) {
  const problems: string[] = [];
  const key = (a: string, b: string) => [a, b].sort().join(' ');
  const seen = new Set<string>();
  for (const { at, a, b, which } of named) {
    const goneA = notInPlay(state, a);
    const goneB = notInPlay(state, b);
    if (goneA) problems.push(`${which[0]}: ${goneA}`);
    else if (goneB) problems.push(`${which[1]}: ${goneB}`);
    else if (a === b) problems.push(`${at}: a proposal paired with itself`);
    else if (seen.has(key(a, b))) problems.push(`${at}: the pair ${pairName(a, b)} twice`);
    seen.add(key(a, b));
  }
  const missing = pairsOf(activeIds(state)).filter(([a, b]) => !seen.has(key(a, b)));
  if (missing.length > 0) problems.push(`missing pairs: ${missing.map(([a, b]) => pairName(a, b)).join(', ')}`);
  return problems;
}

export function similarityProblems(state: ArenaState, answer: SimilarityAnswer): string[] {
  return pairProblems(
    state,
    answer.pairs.map((p, i) => ({
      at: `pairs[${i}]`,
      a: p.a,
      b: p.b,
      which: [`pairs[${i}].a`, `pairs[${i}].b`] as [string, string],
    })),
  );
}

/** The judged measure's live answer (`agreements` keyed by pair names), its slips named by key. */
export function judgedAgreementsProblems(state: ArenaState, answer: JudgedAgreements): string[] {
  const keys = Object.keys(answer.agreements);
  const unreadable = keys
    .filter((k) => pairOfName(k) === null)
    .map((k) => `agreements."${k}": not a pair's name (two agent ids joined by "${PAIR_JOIN}", as the ask lists them)`);
  const named = keys.flatMap((k) => {
    const pair = pairOfName(k);
    const at = `agreements."${k}"`;
    return pair ? [{ at, a: pair[0], b: pair[1], which: [at, at] as [string, string] }] : [];
  });
  return [...unreadable, ...pairProblems(state, named)];
}

export function voteProblems(state: ArenaState, agent: string, answer: VoteAnswer): string[] {
  const gone = notInPlay(state, answer.vote);
  if (gone) return [`vote: ${gone}`];
  if (answer.vote === agent && !state.config.selfVote) return ['vote: an agent may not vote for its own proposal'];
  return [];
}

export function tricksterProblems(state: ArenaState, answer: TricksterAnswer): string[] {
  const leader = lastVote(state)?.outcome.leader;
  const gone = notInPlay(state, answer.target);
  if (gone) return [`target: ${gone}`];
  if (answer.target !== leader)
    return [`target: the challenge is aimed at the winning proposal, ${leader}'s, not ${answer.target}'s`];
  return [];
}

export function judgeProblems(state: ArenaState, answer: JudgeAnswer): string[] {
  const ids = activeIds(state);
  const problems = Object.keys(answer.scores)
    .filter((id) => !ids.includes(id))
    .map((id) => `scores: ${notInPlay(state, id)}`);
  const missing = ids.filter((id) => !(id in answer.scores));
  if (missing.length > 0) problems.push(`scores: no score for ${missing.join(', ')}`);
  return problems;
}
