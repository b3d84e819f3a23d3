import type { GlossaryEntry } from './glossary';

// The words of the arena (ARENA-PROTOCOL.md), each in plain words and one sentence; spread into
// the one glossary, so a (?) beside an arena term and the glossary view read the same sentence.

export const ARENA_GLOSSARY = {
  arena: {
    plain: 'arena',
    sentence:
      'Several agents each propose an answer to one question, critique each other’s, revise toward agreement, vote, and a judge scores them; the ratings follow.',
  },
  proposal: {
    plain: 'proposal',
    sentence:
      'An agent’s answer: a title, a summary, a body, the claims it rests on (each with an id and its evidence) and how sure the agent is (0–100%).',
  },
  revision: {
    plain: 'revision',
    sentence:
      'A new version of an agent’s proposal after the critiques (rounds 3 to 5), each change given with its reason: a critique, an idea taken from another agent, or its own.',
  },
  refinement: {
    plain: 'refinement',
    code: 'round 6',
    sentence: 'The final version each agent writes when the revision rounds ended without the proposals agreeing.',
  },
  critique: {
    plain: 'critique',
    sentence:
      'One agent’s objection to another’s proposal, pinned to the claim it targets when it targets one, with its severity and a fix when there is one.',
  },
  CRITICAL: {
    plain: 'critical',
    code: 'CRITICAL',
    sentence: 'A critique saying the proposal fails if this stands.',
  },
  MAJOR: {
    plain: 'major',
    code: 'MAJOR',
    sentence: 'A critique saying the proposal must change on this point.',
  },
  MINOR: {
    plain: 'minor',
    code: 'MINOR',
    sentence: 'A critique of a detail.',
  },
  addressed: {
    plain: 'answered',
    code: 'addressed',
    sentence:
      'The criticised agent says a later version of its proposal answers this critique (its own word: nobody checks that it really does).',
  },
  adopted: {
    plain: 'adopted',
    sentence: 'A change an agent made by taking up another agent’s idea, naming that agent.',
  },
  agreement: {
    plain: 'agreement score',
    code: 'convergence',
    sentence:
      'How alike the proposals are after a revision round, from 0 (nothing in common) to 1 (the same), by the measure named beside it; at or over the threshold the revision rounds stop early.',
  },
  lexical: {
    plain: 'word overlap',
    code: 'lexical',
    sentence:
      'The share of words and word pairs two proposals have in common (Jaccard), averaged over every pair of agents: it sees the wording, not the meaning.',
  },
  judged: {
    plain: 'judged by a model',
    code: 'judged',
    sentence:
      'The judge reads every pair of proposals and says how far the two would have the researcher do the same thing, from 0 to 1; the score is the mean over the pairs.',
  },
  embedding: {
    plain: 'meaning vectors',
    code: 'embedding',
    sentence:
      'How close the proposals’ meaning vectors from an embeddings service are, from 0 to 1; it needs an embeddings endpoint.',
  },
  'consensus-level': {
    plain: 'consensus level',
    sentence:
      'How many voted for the leading proposal, of V votes cast: unanimous (all), supermajority (at least ⌈2V/3⌉), majority (more than half), else none.',
  },
  're-vote': {
    plain: 're-vote',
    sentence: 'The second vote, after the trickster’s challenge and one more revision: the result shows both votes.',
  },
  trickster: {
    plain: 'trickster',
    sentence:
      'A persona that checks a consensus for four signs that it is hollow and, when one holds, challenges the winning proposal once.',
  },
  hollow: {
    plain: 'hollow consensus',
    sentence:
      'Agreement reached by copying rather than by being persuaded: the trickster’s four checks look for it, each with the number behind it.',
  },
  ADOPTION: {
    plain: 'mostly copied',
    code: 'ADOPTION',
    sentence: 'At least half of all changes were ideas taken from other agents, by at least two agents.',
  },
  UNADDRESSED_CRITICAL: {
    plain: 'critical critique left open',
    code: 'UNADDRESSED_CRITICAL',
    sentence: 'A CRITICAL critique of the winning proposal that its author never said it answered.',
  },
  THIN_EVIDENCE: {
    plain: 'thin evidence',
    code: 'THIN_EVIDENCE',
    sentence: 'Fewer than half of the winning proposal’s claims carry any evidence.',
  },
  TOO_FAST: {
    plain: 'agreed too fast',
    code: 'TOO_FAST',
    sentence: 'The proposals agreed already in round 3 and no change cited a critique.',
  },
  held: {
    plain: 'held',
    code: 'held',
    sentence: 'After the challenge the re-vote reached consensus on the same proposal.',
  },
  moved: {
    plain: 'moved',
    code: 'moved',
    sentence: 'After the challenge the re-vote reached consensus on another proposal.',
  },
  broken: {
    plain: 'broken',
    code: 'broken',
    sentence: 'After the challenge the re-vote reached no consensus.',
  },
  CONSENSUS: {
    plain: 'consensus',
    code: 'CONSENSUS',
    sentence: 'The arena ended because the agents’ last vote reached the consensus level it asks for.',
  },
  JUDGED: {
    plain: 'decided by the judge',
    code: 'JUDGED',
    sentence: 'The vote reached no consensus, but the judge’s top score led the second by 1.0 or more (of 10).',
  },
  SPLIT: {
    plain: 'split',
    code: 'SPLIT',
    sentence: 'Neither a consensus nor a clear lead, even after the extended rounds: the agents stayed divided.',
  },
  'extended-round': {
    plain: 'extended round',
    code: 'X1, X2 …',
    sentence:
      'One more revision, vote and judgment when the vote reached no consensus and the judge saw no clear lead.',
  },
  'judge-score': {
    plain: 'judge’s score',
    sentence:
      'The judge’s score of each proposal from 0 to 10 with its reasons; the ranking follows it (ties go to more votes).',
  },
  elo: {
    plain: 'Elo',
    sentence:
      'A rating that rises when a persona’s proposal is ranked above another’s and falls when below, more so against a higher-rated one; everyone starts at 1500, and only completed arenas count.',
  },
  'vote-brier': {
    plain: 'vote Brier score',
    sentence:
      'How well an agent’s vote and its confidence foretold the judge’s winner: 0 is a sure and right vote, 1 a sure and wrong one; lower is better.',
  },
  tournament: {
    plain: 'tournament',
    sentence:
      'Two to eight ideas set against each other: every pair meets once in a head-to-head arena of their champions, one arena after another, and the judge’s scores move the ideas’ Elo, not the personas’.',
  },
  champion: {
    plain: 'champion',
    sentence: 'The debater persona that argues for one idea in every arena of a tournament; each idea has its own.',
  },
  'idea-elo': {
    plain: 'idea Elo',
    sentence:
      'An idea’s rating from tournaments, where ideas are the contestants, each championed by an agent; it starts at 1500.',
  },
} as const satisfies Record<string, GlossaryEntry>;
