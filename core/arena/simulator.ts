import { SIMULATED_LABEL } from '../sim/label';
import { pick, rngFor } from '../sim/prng';
import { protocolSimulator } from '../sim/registry';
import type { Change, Claim, CritiqueItem, ProposalAnswer, RevisionAnswer, Severity } from './answers';
import type { ArenaBrief } from './live/briefs';
import { judgedAgreements } from './judged-agreements';
import { type RevisionEdits, revisionEdits } from './revision-edits';
import { jaccard, lexicalTerms, proposalText } from './similarity';
import type { ProposalVersion } from './state';

/**
 * The arena played offline, deterministically from the seed and the brief. Each agent keeps a few
 * sentences of its own and takes up more of a shared plan each round, so the proposals converge at
 * a pace the seed decides (sometimes early, sometimes only after the refinement, sometimes never).
 * About one arena in three is a hollow consensus on purpose: in round 3 everyone copies one
 * proposal whose claims lack evidence, without answering a critique, and votes for it; the
 * trickster's checks exist to catch exactly that.
 */

const S = SIMULATED_LABEL;

/** What stays the same for every brief of one arena: its seed and its question. */
const arenaRng = (seed: number, brief: { topic: string }, ...keys: (string | number)[]) =>
  rngFor(seed, brief.topic, ...keys);

const isHollow = (seed: number, brief: { topic: string }) => arenaRng(seed, brief, 'hollow')() < 0.35;
/** How many own sentences an agent gives up per revision round: 1 (slow) or 2 (fast). */
const paceOf = (seed: number, brief: { topic: string }) => (arenaRng(seed, brief, 'pace')() < 0.5 ? 1 : 2);
const quality = (seed: number, brief: { topic: string }, agent: string) => arenaRng(seed, brief, 'quality', agent)();

/** The agent whose proposal a hollow arena copies: the one the seed likes best. */
function model(seed: number, brief: { topic: string; agents: string[] }): string {
  return [...brief.agents].sort((a, b) => quality(seed, brief, b) - quality(seed, brief, a))[0] as string;
}

const SHARED = [
  'Start with a pilot small enough to fail cleanly before anything is rolled out.',
  'Write down the outcome and the analysis before any data is collected.',
  'Keep a concurrent comparison group instead of leaning on last year.',
  'Record the cost in hours and money beside the main outcome.',
  'Review the result with the people it affects before deciding.',
  'Stop early when the first month shows harm.',
];

const OWN = [
  'VOICE insists on interviewing twelve affected people first.',
  'VOICE wants a written budget ceiling agreed upfront.',
  'VOICE would publish every interim number openly.',
  'VOICE doubts that volunteers will stay past spring.',
  'VOICE expects regulators to ask about consent forms.',
  'VOICE proposes weekly dashboards for the steering group.',
  'VOICE recommends partnering with an outside university lab.',
  'VOICE warns that seasonal effects could swamp everything.',
  'VOICE suggests automating the data capture from day one.',
  'VOICE prefers buying a tested tool over building one.',
];

function ownSentences(seed: number, brief: { topic: string }, agent: string): string[] {
  const rng = arenaRng(seed, brief, 'own', agent);
  const bank = [...OWN];
  const chosen: string[] = [];
  while (chosen.length < 4 && bank.length > 0)
    chosen.push(bank.splice(Math.floor(rng() * bank.length), 1)[0] as string);
  const voice = agent.charAt(0).toUpperCase() + agent.slice(1);
  return chosen.map((s) => s.replace('VOICE', voice));
}

function claimsFor(seed: number, brief: { topic: string; agents: string[] }, agent: string): Claim[] {
  const rng = arenaRng(seed, brief, 'claims', agent);
  const thin = isHollow(seed, brief) && model(seed, brief) === agent;
  const n = thin ? 3 : 2 + Math.floor(rng() * 2);
  return Array.from({ length: n }, (_, i) => {
    const supported = thin ? i === 0 : rng() < 0.75;
    return {
      id: `k${i + 1}`,
      text: `${S} ${agent}'s claim ${i + 1} about ${brief.topic.replace(/[?.]$/, '')}.`,
      evidence: supported
        ? [{ source: `${S} ${agent}'s notes`, quote: `${S} an observation behind claim ${i + 1}.` }]
        : [],
    };
  });
}

/** A proposal made of `own` of the agent's sentences and `shared` of the common plan. */
function compose(
  seed: number,
  brief: { topic: string },
  agent: string,
  own: number,
  shared: number,
): Omit<ProposalAnswer, 'claims' | 'confidence'> {
  const mine = ownSentences(seed, brief, agent).slice(0, Math.max(0, own));
  const common = SHARED.slice(0, Math.max(0, Math.min(SHARED.length, shared)));
  const converged = own <= 1;
  return {
    title: converged ? `${S} A careful pilot` : `${S} ${agent}'s plan`,
    summary: converged ? `${S} ${common[0] ?? 'A pilot first.'}` : `${S} ${mine[0] ?? 'A plan of its own.'}`,
    // One paragraph a sentence, so a revision edits the paragraphs it changes.
    body: `${S} ${[...common, ...mine].join('\n\n')}`,
  };
}

/** How far along the agents are: round 3 is the first step, the trickster's round and extended rounds go on from 3. */
function stepOf(round: number | string): number {
  if (typeof round === 'number') return round === 6 ? 4 : round - 2;
  if (round === 'T') return 3;
  return 3 + Number(round.slice(1));
}

/** A revision as a model sends it live: the edits that turn the current version into the revised one. */
function revise(seed: number, brief: Extract<ArenaBrief, { kind: 'revision' | 'refinement' }>): RevisionEdits {
  return revisionEdits(brief.proposals[brief.agent] as ProposalVersion, revised(seed, brief));
}

function revised(seed: number, brief: Extract<ArenaBrief, { kind: 'revision' | 'refinement' }>): RevisionAnswer {
  const { agent } = brief;
  const rng = arenaRng(seed, brief, 'revise', agent, String(brief.round));
  const current = brief.proposals[agent] as ProposalVersion;
  const claims = current.claims;
  const hollowRound = isHollow(seed, brief) && brief.round === 3;
  if (hollowRound) {
    const leader = model(seed, brief);
    const copied = brief.proposals[leader] as ProposalVersion;
    const changes: Change[] =
      agent === leader
        ? [{ what: `${S} tightened the wording`, because: { own: `${S} it read twice` } }]
        : [{ what: `${S} took up ${leader}'s plan as it stands`, because: { adopted: leader } }];
    return {
      title: copied.title,
      summary: copied.summary,
      body: copied.body,
      claims,
      confidence: 0.85,
      changes,
      addressed: [],
    };
  }
  const open = brief.critiques.filter((c) => c.target === agent && !brief.addressed.includes(c.id));
  // After a challenge every open critique is answered; otherwise most are, one round at a time.
  const answered = open.filter(() => brief.round === 'T' || rng() < 0.7);
  const changes: Change[] = answered.map((c) => ({ what: `${S} answered ${c.id}`, because: { critique: c.id } }));
  const others = brief.agents.filter((a) => a !== agent);
  if (rng() < 0.35 && others.length > 0) {
    const from = pick(rng, others);
    changes.push({ what: `${S} took up an idea of ${from}'s`, because: { adopted: from } });
  }
  if (changes.length === 0) changes.push({ what: `${S} sharpened the plan`, because: { own: `${S} it was vague` } });
  const step = stepOf(brief.round);
  const pace = paceOf(seed, brief);
  const text = compose(seed, brief, agent, 4 - step * pace, 1 + step * pace);
  const strengthened = new Set(answered.flatMap((c) => (c.claim ? [c.claim] : [])));
  return {
    ...text,
    claims: claims.map((c) =>
      strengthened.has(c.id) && c.evidence.length === 0
        ? { ...c, evidence: [{ source: `${S} ${agent}'s follow-up`, quote: `${S} what answers the critique.` }] }
        : c,
    ),
    // Two decimals, as a model writes a confidence (0.83, not 0.8300000000000001).
    confidence: Math.round(Math.min(0.95, current.confidence + 0.05) * 100) / 100,
    changes,
    addressed: answered.map((c) => c.id),
  };
}

function voteFor(seed: number, brief: Extract<ArenaBrief, { kind: 'vote' }>) {
  const candidates = brief.agents.filter((a) => brief.selfVote || a !== brief.agent);
  const leader = model(seed, brief);
  if (isHollow(seed, brief) && brief.pass === 'main' && candidates.includes(leader))
    return { vote: leader, confidence: 0.85, reason: `${S} we all agree on ${leader}'s plan.` };
  const rng = arenaRng(seed, brief, 'vote', brief.agent, brief.pass);
  const scored = candidates.map((a) => ({ a, s: quality(seed, brief, a) + rng() * 0.5 }));
  scored.sort((x, y) => y.s - x.s);
  const choice = scored[0]?.a ?? candidates[0] ?? brief.agent;
  return {
    vote: choice,
    confidence: Math.round((0.5 + rng() * 0.4) * 100) / 100,
    reason: `${S} ${choice}'s proposal answers the question best.`,
  };
}

const SEVERITIES: Severity[] = ['CRITICAL', 'MAJOR', 'MAJOR', 'MINOR', 'MINOR'];

export const simulatorForArena = protocolSimulator<ArenaBrief>('arena', {
  proposal(seed, brief) {
    const text = compose(seed, brief, brief.agent, 4, 1);
    const rng = arenaRng(seed, brief, 'confidence', brief.agent);
    return {
      ...text,
      claims: claimsFor(seed, brief, brief.agent),
      confidence: Math.round((0.55 + rng() * 0.35) * 100) / 100,
    };
  },
  critique(seed, brief) {
    const rng = arenaRng(seed, brief, 'critique', brief.agent);
    const critiques: CritiqueItem[] = brief.agents
      .filter((a) => a !== brief.agent)
      .map((target) => {
        const claim = pick(rng, brief.proposals[target]?.claims ?? []);
        const severity = pick(rng, SEVERITIES);
        return {
          target,
          ...(claim ? { claim: claim.id } : {}),
          severity,
          text: `${S} ${target}'s ${claim ? `claim ${claim.id}` : 'plan'} needs support it does not yet have.`,
          fix: `${S} show the evidence or narrow the claim.`,
        };
      });
    return { critiques };
  },
  revision: revise,
  refinement: revise,
  similarity(_seed, brief) {
    const terms = Object.fromEntries(
      Object.entries(brief.proposals).map(([a, p]) => [a, lexicalTerms(proposalText(p))]),
    );
    const pairs = brief.agents.flatMap((a, i) =>
      brief.agents.slice(i + 1).map((b) => ({
        a,
        b,
        agreement: Math.round(jaccard(terms[a] ?? new Set(), terms[b] ?? new Set()) * 100) / 100,
      })),
    );
    // As a model answers the judged measure live: keyed by pair names.
    return judgedAgreements({ pairs });
  },
  vote: voteFor,
  trickster(_seed, brief) {
    return {
      challenge: `${S} The agreement on ${brief.leader}'s proposal looks hollow (${brief.hollow.reasons.join(', ')}): show the evidence and answer the critiques before it stands.`,
      target: brief.leader,
    };
  },
  judge(seed, brief) {
    const scores = Object.fromEntries(
      brief.agents.map((a) => {
        const rng = arenaRng(seed, brief, 'judge', a, brief.pass);
        const overall = Math.round((4.5 + 4.5 * quality(seed, brief, a) + (rng() - 0.5)) * 2) / 2;
        return [
          a,
          { overall: Math.max(0, Math.min(10, overall)), reasons: `${S} how well ${a}'s plan answers the question.` },
        ];
      }),
    );
    return { scores, summary: `${S} the judge's reading of the proposals as they stand.` };
  },
});
