import type { PairwiseEmbeddingBrief } from '../../ports/embeddings';
import type { AnswerCheck, LlmRequest, LlmTool } from '../../ports/llm';
import {
  type SimilarityAnswer,
  critiqueAnswerSchema,
  judgeAnswerSchema,
  proposalAnswerSchema,
  revisionAnswerSchema,
  similarityAnswerSchema,
  tricksterAnswerSchema,
  voteAnswerSchema,
} from '../answers';
import {
  critiqueProblems,
  judgeProblems,
  proposalProblems,
  revisionProblems,
  similarityProblems,
  tricksterProblems,
  voteProblems,
} from '../checks';
import type { ArenaAsk } from '../inputs';
import { pairsOf, proposalText } from '../similarity';
import { type ArenaState, agentIds, currentProposal, lastVote, type ProposalVersion } from '../state';
import { arenaBrief } from './briefs';
import type { ArenaPersona, ArenaSetup } from './setup';

/**
 * The model request of each ask. The system prompt runs from the most shared to the least: the
 * arena's rules, the question and its context brief (the same for every call of the arena, so a
 * prompt cache keeps it once), then the persona answering. The round's materials and what is asked
 * come in the one message. Every request offers every answer shape (one tool set, one cached head)
 * and carries its brief for the simulator.
 */

const RULES = `# How this arena works

Several agents answer one question. Round 1: each writes a proposal (title, summary, body, claims with ids and evidence, confidence). Round 2: each critiques every other proposal (target, the claim when it is about one, severity CRITICAL, MAJOR or MINOR, text, and a fix when there is one); critiques get ids c2-<author>-<k>. Rounds 3 to 5: each revises, saying for every change why (a critique id, the agent whose idea was adopted, or a reason of its own) and listing the critiques of its proposal it answered. The rounds stop early once the proposals agree; a refinement gives the final version. Then every agent votes for the proposal most likely to rank first, and a judge scores them all. A trickster may challenge a consensus that looks hollow.

Rules for every answer: rely on the brief below and on general knowledge stated as such; never invent a source, a figure or a link (an empty evidence list is honest); keep your claim ids from one version to the next; agree only where you are persuaded. Adopting another agent's idea because it is better is good; copying wording to agree is hollow, and the arena checks for it.`;

export function arenaToolset(): LlmTool[] {
  return [
    { name: 'arena_proposal', description: 'Your proposal.', schema: proposalAnswerSchema },
    { name: 'arena_critiques', description: 'Your critiques of the other proposals.', schema: critiqueAnswerSchema },
    { name: 'arena_revision', description: 'Your revised proposal.', schema: revisionAnswerSchema },
    { name: 'arena_similarity', description: 'How far each pair of proposals agrees.', schema: similarityAnswerSchema },
    { name: 'arena_vote', description: 'Your vote.', schema: voteAnswerSchema },
    { name: 'arena_challenge', description: "The trickster's challenge.", schema: tricksterAnswerSchema },
    { name: 'arena_judgment', description: "The judge's scores.", schema: judgeAnswerSchema },
  ] as LlmTool[];
}

function head(setup: ArenaSetup): string {
  const context = setup.context.trim();
  return [RULES, `# The question\n\n${setup.question.trim()}`, context ? `# The brief\n\n${context}` : '']
    .filter(Boolean)
    .join('\n\n');
}

function nameOf(state: ArenaState, id: string): string {
  const a = state.agents.find((x) => x.id === id);
  return a ? `${a.name} [${a.id}]` : id;
}

function proposalBlock(state: ArenaState, agent: string, p: ProposalVersion | undefined): string {
  if (!p) return `## ${nameOf(state, agent)}: no proposal yet`;
  const claims = p.claims
    .map((c) => {
      const evidence = c.evidence.length
        ? c.evidence.map((e) => `${e.source}: "${e.quote}"`).join('; ')
        : 'no evidence';
      return `- ${c.id}: ${c.text} (${evidence})`;
    })
    .join('\n');
  return `## ${nameOf(state, agent)}: ${p.title}\nSummary: ${p.summary}\n\n${p.body}\n\nClaims:\n${claims}\nConfidence: ${p.confidence}`;
}

function allProposals(state: ArenaState, except?: string): string {
  return agentIds(state)
    .filter((a) => a !== except)
    .map((a) => proposalBlock(state, a, currentProposal(state, a)))
    .join('\n\n');
}

function critiquesOf(state: ArenaState, agent: string): string {
  const addressed = new Set(state.revisions.filter((r) => r.agent === agent).flatMap((r) => r.addressed));
  const lines = state.critiques
    .filter((c) => c.target === agent)
    .map(
      (c) =>
        `- ${c.id} from ${c.author} (${c.severity}${c.claim ? `, on ${c.claim}` : ''})${addressed.has(c.id) ? ' [answered]' : ''}: ${c.text}${c.fix ? ` Fix: ${c.fix}` : ''}`,
    );
  return lines.length ? lines.join('\n') : '- none';
}

function lastScore(state: ArenaState): string {
  const c = state.convergence[state.convergence.length - 1];
  return c ? `\n\nAgreement after round ${c.round}: ${c.score.toFixed(2)} (${c.measure} measure).` : '';
}

function checked<T>(problems: (value: T) => string[]): (value: T) => AnswerCheck<T> {
  return (value) => {
    const found = problems(value);
    return found.length ? { ok: false, problems: found } : { ok: true, value };
  };
}

function personaFor(setup: ArenaSetup, ask: ArenaAsk): ArenaPersona {
  if (ask.kind === 'similarity' || ask.kind === 'judge') return setup.judge;
  if (ask.kind === 'trickster') return setup.trickster ?? setup.judge;
  const agent = setup.agents.find((a) => a.id === ask.agent);
  if (!agent) throw new Error(`no persona for agent "${ask.agent}"`);
  return agent;
}

interface Asked {
  text: string;
  schema: LlmRequest<unknown>['schema'];
  schemaName: string;
  maxTokens: number;
  check: (value: never) => AnswerCheck<unknown>;
}

function asked(state: ArenaState, ask: ArenaAsk): Asked {
  switch (ask.kind) {
    case 'proposal':
      return {
        text: 'Round 1, your proposal. Answer the question above. Give each claim a short id of your own (k1, k2 …) and keep it across revisions; attach evidence only from the brief or from general knowledge named as such. Say in the body how the proposal could fail and how we would know.',
        schema: proposalAnswerSchema,
        schemaName: 'arena_proposal',
        maxTokens: 1500,
        check: checked((v) => proposalProblems(state, ask.agent, v)),
      };
    case 'critique':
      return {
        text: `Round 2, critique. The proposals of the others:\n\n${allProposals(state, ask.agent)}\n\nCritique every one of them at least once: target is its agent id, claim is one of its claim ids when the critique is about a claim. CRITICAL: the proposal fails if this stands; MAJOR: it must change; MINOR: a detail. Be specific enough that the author can act on it, and give a fix when you have one.`,
        schema: critiqueAnswerSchema,
        schemaName: 'arena_critiques',
        maxTokens: 1500,
        check: checked((v) => critiqueProblems(state, ask.agent, v)),
      };
    case 'revision':
    case 'refinement': {
      const challenge =
        ask.kind === 'revision' && ask.round === 'T' && state.challenge
          ? `\n\nThe trickster challenges the consensus on ${state.challenge.target}'s proposal: "${state.challenge.challenge}" Answer it in this revision if it holds.`
          : '';
      const what =
        ask.kind === 'refinement'
          ? 'Round 6, refinement: your final version.'
          : ask.round === 'T'
            ? 'One more revision, after the challenge.'
            : typeof ask.round === 'string'
              ? `Extended round ${ask.round}: the vote reached no consensus and the judge saw no clear lead; revise once more.`
              : `Round ${ask.round}, revision.`;
      return {
        text: `${what}\n\nYour current proposal:\n\n${proposalBlock(state, ask.agent, currentProposal(state, ask.agent))}\n\nThe critiques of your proposal:\n${critiquesOf(state, ask.agent)}\n\nThe others' current proposals:\n\n${allProposals(state, ask.agent)}${lastScore(state)}${challenge}\n\nGive your revised proposal in full. List every change with its reason (a critique id, the agent whose idea you adopted, or your own reason) and the ids of the critiques of your proposal this version answers.`,
        schema: revisionAnswerSchema,
        schemaName: 'arena_revision',
        maxTokens: 2000,
        check: checked((v) => revisionProblems(state, ask.agent, v)),
      };
    }
    case 'similarity': {
      const pairs = pairsOf(agentIds(state))
        .map(([a, b]) => `${a}–${b}`)
        .join(', ');
      return {
        text: `After revision round ${ask.round}, how far do the proposals agree? Judge what each would have the researcher do, not its wording. The proposals:\n\n${allProposals(state)}\n\nGive the agreement (0 to 1) of every pair exactly once: ${pairs}.`,
        schema: similarityAnswerSchema,
        schemaName: 'arena_similarity',
        maxTokens: 600,
        check: checked((v) => similarityProblems(state, v)),
      };
    }
    case 'vote':
      return {
        text: `Vote. The proposals as they stand:\n\n${allProposals(state)}\n\nVote for the proposal you think the judge will rank first${state.config.selfVote ? '' : ' (not your own)'}; your confidence is the chance you give it of ranking first.`,
        schema: voteAnswerSchema,
        schemaName: 'arena_vote',
        maxTokens: 400,
        check: checked((v) => voteProblems(state, ask.agent, v)),
      };
    case 'trickster': {
      const leader = lastVote(state)?.outcome.leader ?? '';
      const h = state.hollow;
      const numbers = h
        ? `Checks that fired: ${h.reasons.join(', ')}. Adopted changes: ${Math.round((h.adoptionShare ?? 0) * 100)}% (by ${h.adopters ?? 0} agents); unanswered critical critiques of the winner: ${h.unaddressedCritical?.join(', ') || 'none'}; claims of the winner with evidence: ${Math.round((h.evidenceShare ?? 0) * 100)}%; changes citing a critique: ${h.critiqueChanges ?? 0}; converged in round ${h.convergedIn ?? '—'}.`
        : '';
      return {
        text: `The agents reached a consensus on ${nameOf(state, leader)}'s proposal, and it looks hollow. ${numbers}\n\nThe winning proposal:\n\n${proposalBlock(state, leader, currentProposal(state, leader))}\n\nThe critiques of it:\n${critiquesOf(state, leader)}\n\nWrite your one challenge; target is ${leader}.`,
        schema: tricksterAnswerSchema,
        schemaName: 'arena_challenge',
        maxTokens: 600,
        check: checked((v) => tricksterProblems(state, v)),
      };
    }
    case 'judge': {
      const tally = Object.entries(lastVote(state)?.outcome.tally ?? {})
        .map(([a, n]) => `${a} ${n}`)
        .join(', ');
      return {
        text: `Judge the proposals as they stand:\n\n${allProposals(state)}\n\nThe agents' vote: ${tally || 'none'}. Score every agent's proposal (keyed by agent id: ${agentIds(state).join(', ')}) from 0 to 10 with your reasons, and sum up.`,
        schema: judgeAnswerSchema,
        schemaName: 'arena_judgment',
        maxTokens: 1500,
        check: checked((v) => judgeProblems(state, v)),
      };
    }
  }
}

/**
 * The embedding measure's request: no model call, but the same path (the runner makes, meters and
 * logs it; the provider's embeddings wrapper answers it): every current proposal's text (title,
 * summary and body, as the lexical measure reads it) to the setup's endpoint, the agreement of each
 * pair the cosine of their embeddings.
 */
function embeddingRequest(setup: ArenaSetup, state: ArenaState): LlmRequest<unknown> {
  const endpoint = setup.embedding;
  if (!endpoint) throw new Error('the embedding measure needs an endpoint in the setup');
  const brief: PairwiseEmbeddingBrief = {
    protocol: 'embeddings',
    kind: 'pairwise-cosine',
    endpoint,
    texts: agentIds(state).map((id) => {
      const p = currentProposal(state, id);
      return { id, text: p ? proposalText(p) : '' };
    }),
  };
  return {
    system: '',
    messages: [{ role: 'user', content: `Embeddings of ${brief.texts.length} proposals (${endpoint.model}).` }],
    schema: similarityAnswerSchema,
    schemaName: 'arena_similarity',
    tier: setup.judge.tier,
    maxTokens: 1,
    check: checked<SimilarityAnswer>((v) => similarityProblems(state, v)) as (value: unknown) => AnswerCheck<unknown>,
    brief,
  };
}

export function arenaRequest(setup: ArenaSetup, state: ArenaState, ask: ArenaAsk): LlmRequest<unknown> {
  if (ask.kind === 'similarity' && state.config.similarity === 'embedding') return embeddingRequest(setup, state);
  const persona = personaFor(setup, ask);
  const systemParts = [head(setup), `# Who you are\n\n${persona.systemPrompt.trim()}`];
  const a = asked(state, ask);
  return {
    system: systemParts.join('\n\n'),
    systemParts,
    toolset: arenaToolset(),
    messages: [{ role: 'user', content: a.text }],
    stablePrefix: 0,
    schema: a.schema,
    schemaName: a.schemaName,
    tier: persona.tier,
    maxTokens: a.maxTokens,
    check: a.check as (value: unknown) => AnswerCheck<unknown>,
    brief: arenaBrief(state, ask),
  };
}
