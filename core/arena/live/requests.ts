import type { PairwiseEmbeddingBrief } from '../../ports/embeddings';
import type { AnswerCheck, LlmRequest, LlmTool } from '../../ports/llm';
import {
  type SimilarityAnswer,
  critiqueAnswerSchema,
  judgeAnswerSchema,
  proposalAnswerSchema,
  similarityAnswerSchema,
  tricksterAnswerSchema,
  voteAnswerSchema,
} from '../answers';
import {
  critiqueProblems,
  judgedAgreementsProblems,
  judgeProblems,
  proposalProblems,
  revisionEditsProblems,
  similarityProblems,
  tricksterProblems,
  voteProblems,
} from '../checks';
import type { ArenaConfig } from '../config';
import type { ArenaAsk } from '../inputs';
import { judgedAgreementsSchema, pairName } from '../judged-agreements';
import { numberedBody, revisionEditsSchema } from '../revision-edits';
import { pairsOf, proposalText } from '../similarity';
import { type ArenaState, activeIds, agentIds, currentProposal, lastVote, type ProposalVersion } from '../state';
import { arenaBrief } from './briefs';
import type { ArenaPersona, ArenaSetup } from './setup';

/**
 * The model request of each ask, laid out from the most shared to the least, so a prompt cache keeps
 * each part once: the tools (every answer shape, one tool set, the choice among them left to the
 * model so it is the same for every request), the system prompt (the arena's rules, the question
 * and its context brief: the same for every call of the arena), the materials of the state the ask
 * is made in (every proposal, every critique: the same for every call made in that state, whoever
 * makes it), and last who answers (the persona) and what is asked. Every request carries its brief
 * for the simulator.
 */

const RULES = `# How this arena works

Several agents answer one question. Round 1: each writes a proposal (title, summary, body, claims with ids and evidence, confidence). Round 2: each critiques every other proposal (target, the claim when it is about one, severity CRITICAL, MAJOR or MINOR, text, and a fix when there is one); critiques get ids c2-<author>-<k>. Rounds 3 to 5: each revises by editing its current version (the paragraphs of every body are numbered for that), saying for every change why (a critique id, the agent whose idea was adopted, or a reason of its own) and listing the critiques of its proposal it answered. The rounds stop early once the proposals agree; a refinement gives the final version. Then every agent votes for the proposal most likely to rank first, and a judge scores them all. A trickster may challenge a consensus that looks hollow.

How to revise: send only what changes, not the proposal again. A new title or summary only when it changes. bodyEdits name paragraphs by their ¶ number in your current version as shown (the numbers do not shift as you edit): replace paragraph at, insertAfter paragraph at (0: before the first), or delete it. Give a new claim in full; a changed one by its id with what changes (its text, its whole evidence list, or both); and dropClaims for any you withdraw. Then your confidence now; in answered, each critique of your proposal this version answers, by its id, with a line saying what answers it; and in changes every other change with its reason (an idea adopted from another agent, or a reason of your own).

Rules for every answer: rely on the brief below and on general knowledge stated as such; never invent a source, a figure or a link (an empty evidence list is honest); keep your claim ids from one version to the next; agree only where you are persuaded; write plainly and say how sure you are rather than hedging every sentence. Adopting another agent's idea because it is better is good; copying wording to agree is hollow, and the arena checks for it.`;

/**
 * Every answer shape this arena can ask for, one tool set for all its requests (so they share the
 * cached head): the judged agreement only when the measure is `judged`, the challenge only with the
 * trickster on. A shape the arena never asks for would be read by every call for nothing.
 */
export function arenaToolset(config: Pick<ArenaConfig, 'similarity' | 'trickster'>): LlmTool[] {
  return [
    { name: 'arena_proposal', description: 'Your proposal.', schema: proposalAnswerSchema },
    { name: 'arena_critiques', description: 'Your critiques of the other proposals.', schema: critiqueAnswerSchema },
    {
      name: 'arena_revision',
      description: 'Your revision: what changes against your current version.',
      schema: revisionEditsSchema,
    },
    ...(config.similarity === 'judged'
      ? [
          {
            name: 'arena_similarity',
            description: 'How far each pair of proposals agrees.',
            schema: judgedAgreementsSchema,
          },
        ]
      : []),
    { name: 'arena_vote', description: 'Your vote.', schema: voteAnswerSchema },
    ...(config.trickster
      ? [{ name: 'arena_challenge', description: "The trickster's challenge.", schema: tricksterAnswerSchema }]
      : []),
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
  const left = state.withdrawn?.[agent];
  if (left !== undefined)
    return `## ${nameOf(state, agent)} has left the arena (${left})${p ? `; its last proposal was "${p.title}"` : ''}`;
  if (!p) return `## ${nameOf(state, agent)}: no proposal yet`;
  const claims = p.claims
    .map((c) => {
      const evidence = c.evidence.length
        ? c.evidence.map((e) => `${e.source}: "${e.quote}"`).join('; ')
        : 'no evidence';
      return `- ${c.id}: ${c.text} (${evidence})`;
    })
    .join('\n');
  return `## ${nameOf(state, agent)}: ${p.title}\nSummary: ${p.summary}\n\n${numberedBody(p.body)}\n\nClaims:\n${claims}\nConfidence: ${p.confidence}`;
}

function allProposals(state: ArenaState): string {
  return agentIds(state)
    .map((a) => proposalBlock(state, a, currentProposal(state, a)))
    .join('\n\n');
}

/** Which critiques each agent has listed as answered: a critique is answered by its target. */
function answeredIds(state: ArenaState): Set<string> {
  return new Set(
    state.critiques
      .filter((c) => state.revisions.some((r) => r.agent === c.target && r.addressed.includes(c.id)))
      .map((c) => c.id),
  );
}

function critiqueLine(c: ArenaState['critiques'][number]): string {
  return `- ${c.id} from ${c.author} on ${c.target}'s proposal (${c.severity}${c.claim ? `, claim ${c.claim}` : ''}): ${c.text}${c.fix ? ` Fix: ${c.fix}` : ''}`;
}

/** The critiques of `agent`'s proposal, by id (their text is in the materials above the ask). */
function critiqueIdsOf(state: ArenaState, agent: string): string {
  const answered = answeredIds(state);
  const ids = state.critiques
    .filter((c) => c.target === agent)
    .map((c) => `${c.id}${answered.has(c.id) ? ' (answered)' : ''}`);
  return ids.length ? ids.join(', ') : 'none';
}

/**
 * What every request made in one state reads, before its ask: every current proposal, then the
 * critiques. The text depends on the state alone, never on who asks or what is asked, so every
 * request made in a state shares it as a cached prefix: the first one writes it (the judge's
 * agreement call after a revision round, or the first agent of a round), the others read it. The
 * proposals come first: the revision round after the critiques reads them as the critique round
 * wrote them and writes only the critiques.
 */
function materials(state: ArenaState): string[] {
  const ids = agentIds(state);
  if (!ids.some((a) => currentProposal(state, a))) return [];
  const parts = [`# The proposals as they stand\n\n${allProposals(state)}`];
  if (state.critiques.length > 0) parts.push(critiquesPart(state));
  return parts;
}

/**
 * The critiques: those still open in full, those their targets have answered by id only. An answered
 * critique's answer is in its target's proposal as it stands, and the rounds after the first
 * revision mostly read answered ones: repeating each in full would be a third of what every later
 * request reads (and of what each new state writes to the cache) for words already acted on.
 */
function critiquesPart(state: ArenaState): string {
  const answered = answeredIds(state);
  // A critique of an agent that left can no longer be answered: it is no longer open.
  const open = state.critiques.filter((c) => !answered.has(c.id) && !(c.target in (state.withdrawn ?? {})));
  const lines = open.length ? open.map(critiqueLine).join('\n') : 'None: every critique has been answered.';
  const done = state.critiques.filter((c) => answered.has(c.id)).map((c) => c.id);
  return `# The critiques\n\n${done.length ? 'Open:\n' : ''}${lines}${done.length ? `\n\nAnswered by their targets: ${done.join(', ')}.` : ''}`;
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
        // How to give claims, ids and evidence is in the rules and the answer's shape, read from the cache.
        text: 'Round 1, your proposal: answer the question above. Say in the body how the proposal could fail and how we would know.',
        schema: proposalAnswerSchema,
        schemaName: 'arena_proposal',
        maxTokens: 1500,
        check: checked((v) => proposalProblems(state, ask.agent, v)),
      };
    case 'critique':
      return {
        // What a critique's fields and severities mean is in its answer's shape, read from the cache.
        text: `Round 2, critique. Your own proposal is the one under [${ask.agent}] above; critique every other proposal above at least once (not those of agents that have left), specifically enough that its author can act on it.`,
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
        text: `${what} Your current proposal is the one under [${ask.agent}] above; the critiques of it are ${critiqueIdsOf(state, ask.agent)}.${lastScore(state)}${challenge}\n\nRevise as the rules say: only what changes, every change with its reason.`,
        schema: revisionEditsSchema,
        schemaName: 'arena_revision',
        maxTokens: 2000,
        check: checked((v) => revisionEditsProblems(state, ask.agent, v)),
      };
    }
    case 'similarity': {
      const pairs = pairsOf(activeIds(state))
        .map(([a, b]) => pairName(a, b))
        .join(', ');
      return {
        text: `After revision round ${ask.round}, how far do the proposals above agree? Judge what each would have the researcher do, not its wording. Give the agreement (0 to 1) of every pair exactly once, keyed by its name: ${pairs}.`,
        schema: judgedAgreementsSchema,
        schemaName: 'arena_similarity',
        maxTokens: 600,
        check: checked((v) => judgedAgreementsProblems(state, v)),
      };
    }
    case 'vote':
      return {
        text: `Vote for the proposal above you think the judge will rank first${state.config.selfVote ? '' : ` (not your own, the one under [${ask.agent}])`}; your confidence is the chance you give it of ranking first.`,
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
        text: `The agents reached a consensus on ${nameOf(state, leader)}'s proposal, and it looks hollow. ${numbers} The winning proposal is the one under [${leader}] above; the critiques of it are ${critiqueIdsOf(state, leader)}.\n\nWrite your one challenge; target is ${leader}.`,
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
        text: `Judge the proposals above as they stand. The agents' vote: ${tally || 'none'}. Score every agent's proposal (keyed by agent id: ${activeIds(state).join(', ')}) from 0 to 10 with your reasons, and sum up.`,
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
    texts: activeIds(state).map((id) => {
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
  const system = head(setup);
  const a = asked(state, ask);
  const shared = materials(state);
  return {
    system,
    systemParts: [system],
    toolset: arenaToolset(state.config),
    // The shared materials first (cached), then who answers and what is asked (the only part that
    // differs between the requests of a round).
    messages: [
      ...shared.map((content) => ({ role: 'user' as const, content })),
      {
        role: 'user',
        content: `# Who you are\n\n${persona.systemPrompt.trim()}\n\n# What is asked of you\n\n${a.text}\n\nAnswer with the \`${a.schemaName}\` tool.`,
      },
    ],
    // Every request leaves the choice of tool to the model (the ask names it), so the tool choice never
    // changes and the materials of a state stay cached across shapes: the judge's agreement call after
    // a revision round writes the new state's materials, and the next round's calls, the votes and
    // the judgment read them instead of each round writing its own copy.
    anyTool: true,
    stablePrefix: shared.length,
    schema: a.schema,
    schemaName: a.schemaName,
    tier: persona.tier,
    maxTokens: a.maxTokens,
    check: a.check as (value: unknown) => AnswerCheck<unknown>,
    brief: arenaBrief(state, ask),
  };
}
