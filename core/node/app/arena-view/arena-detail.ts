import { arenaResult } from '../../../arena/result';
import { type ArenaRound, type ArenaState, agentIds, type ProposalVersion } from '../../../arena/state';
import { arenaAsks } from '../../../arena/step';
import { describeAsk } from '../../../arena/inputs';
import type { ArenaDetail, ArenaVersion, RunStatusView } from '../../../contract';
import { wordDiff } from '../../../text/word-diff';

/** What the arena's log and the live-run host say of the run around its state. */
export interface ArenaRunInfo {
  id: string;
  ideaSlug: string | null;
  status: RunStatusView;
  reason: string | null;
  live: boolean;
  provider: string | null;
  costUsd: number;
  startedAt: string;
  records: number;
  judge: { id: string; name: string };
  trickster: { id: string; name: string } | null;
  tournament: ArenaDetail['tournament'];
}

/** A round of the proposal history in words, as the timeline labels it. */
export function roundLabel(round: ArenaRound | string): string {
  const r = String(round);
  if (r === '1') return 'proposal';
  if (r === '6') return 'refinement';
  if (r === 'T') return 'after the challenge';
  if (r.startsWith('X')) return `extended round ${r.slice(1)}`;
  return `revision ${r}`;
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

function sameClaim(a: ProposalVersion['claims'][number], b: ProposalVersion['claims'][number]): boolean {
  return a.text === b.text && JSON.stringify(a.evidence) === JSON.stringify(b.evidence);
}

function versionsOf(state: ArenaState, agent: string): ArenaVersion[] {
  const versions = state.proposals[agent] ?? [];
  return versions.map((v, i) => {
    const previous = i > 0 ? versions[i - 1] : undefined;
    const record = state.revisions.find((r) => r.agent === agent && String(r.round) === String(v.round));
    const before = new Map((previous?.claims ?? []).map((c) => [c.id, c]));
    const ids = new Set(v.claims.map((c) => c.id));
    return {
      round: String(v.round),
      label: roundLabel(v.round),
      title: v.title,
      summary: v.summary,
      body: v.body,
      claims: v.claims.map((c) => {
        const old = before.get(c.id);
        return {
          id: c.id,
          text: c.text,
          evidence: c.evidence.map((e) => ({ source: e.source, quote: e.quote })),
          change: previous === undefined ? null : !old ? 'new' : sameClaim(old, c) ? 'same' : 'changed',
        };
      }),
      droppedClaims: [...before.keys()].filter((id) => !ids.has(id)),
      confidence: v.confidence,
      changes: (record?.changes ?? []).map((c) => {
        const because = c.because;
        return 'critique' in because
          ? { what: c.what, because: 'critique' as const, ref: because.critique }
          : 'adopted' in because
            ? { what: c.what, because: 'adopted' as const, ref: because.adopted }
            : { what: c.what, because: 'own' as const, ref: because.own };
      }),
      addressed: record?.addressed ?? [],
      diff: previous
        ? {
            title: wordDiff(previous.title, v.title),
            summary: wordDiff(previous.summary, v.summary),
            body: wordDiff(previous.body, v.body),
          }
        : null,
    };
  });
}

/**
 * One arena as the arena view draws it, from its state folded from the log: each agent's versions
 * (diffed against the one before), the critiques pinned to the claims they target with the round
 * that answered them, convergence with its measure, every vote, the judgments, the hollow checks.
 */
export function arenaDetail(state: ArenaState, run: ArenaRunInfo): ArenaDetail {
  const ids = agentIds(state);
  const result = arenaResult(state);
  const changes = state.revisions.flatMap((r) => r.changes);
  const ended = run.status !== 'running' && run.status !== 'paused';
  const h = state.hollow;
  return {
    ...run,
    topic: state.topic,
    settings: {
      similarity: state.config.similarity,
      convergenceThreshold: state.config.convergenceThreshold,
      consensus: state.config.consensus,
      revisionRounds: state.config.revisionRounds,
      maxExtendedRounds: state.config.maxExtendedRounds,
      eloK: state.config.eloK,
    },
    waitingFor: ended ? [] : arenaAsks(state).map(describeAsk),
    agents: state.agents.map((a) => ({
      id: a.id,
      name: a.name,
      versions: versionsOf(state, a.id),
      critiques: state.critiques
        .filter((c) => c.target === a.id)
        .map((c) => ({
          id: c.id,
          author: c.author,
          target: c.target,
          claim: c.claim ?? null,
          severity: c.severity,
          text: c.text,
          fix: c.fix ?? null,
          addressedIn:
            state.revisions.find((r) => r.agent === a.id && r.addressed.includes(c.id))?.round.toString() ?? null,
        })),
      left: state.withdrawn?.[a.id] ?? null,
    })),
    convergence: state.convergence.map((c) => ({
      round: c.round,
      score: r4(c.score),
      measure: c.measure,
      converged: c.score >= state.config.convergenceThreshold,
    })),
    earlyConsensus: state.earlyConsensus,
    votes: state.votes.map((v) => ({
      pass: v.pass,
      ballots: ids.flatMap((agent) => {
        const b = v.ballots[agent];
        return b ? [{ agent, vote: b.vote, confidence: b.confidence, reason: b.reason }] : [];
      }),
      tally: Object.entries(v.outcome.tally).map(([agent, votes]) => ({ agent, votes })),
      leader: v.outcome.leader,
      level: v.outcome.level,
      reached: v.outcome.reached,
    })),
    challenge: state.challenge ? { target: state.challenge.target, text: state.challenge.challenge } : null,
    hollow: state.config.trickster
      ? {
          ran: h !== null,
          detected: h?.detected ?? false,
          reasons: h?.reasons ?? [],
          adoptionShare: h?.adoptionShare === undefined ? null : r4(h.adoptionShare),
          adopters: h?.adopters ?? null,
          unaddressedCritical: h?.unaddressedCritical ?? [],
          evidenceShare: h?.evidenceShare === undefined ? null : r4(h.evidenceShare),
          critiqueChanges: h?.critiqueChanges ?? null,
          convergedIn: h?.convergedIn ?? null,
          afterChallenge: h?.afterChallenge ?? null,
        }
      : null,
    judgments: state.judgments.map((j) => {
      const scores = j.ranking.map((agent) => ({
        agent,
        overall: j.scores[agent]?.overall ?? 0,
        reasons: j.scores[agent]?.reasons ?? '',
      }));
      const [first, second] = scores;
      return {
        pass: j.pass,
        scores,
        ranking: j.ranking,
        summary: j.summary,
        lead: first && second ? r4(first.overall - second.overall) : 0,
      };
    }),
    outcome: state.outcome,
    elo: result ? result.elo : null,
    voteBrier: result ? result.voteBrier : null,
    counters: {
      calls: state.calls,
      critiques: state.critiques.length,
      changes: changes.length,
      adoptions: changes.filter((c) => 'adopted' in c.because).length,
      extendedRounds: state.extendedRounds,
    },
  };
}
