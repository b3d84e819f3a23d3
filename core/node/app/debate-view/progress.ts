import type { DebateProgress } from '../../../contract';
import type { Falsifier } from '../../../crux/falsifier';
import type { DebateStatus } from '../../../engine/debate-record';
import type { DebateDigest } from './debate-digests';

export function falsifierView(f: Falsifier | undefined | null) {
  return f ? { metric: f.metric, threshold: f.threshold, deadline: f.deadline, reasoning: f.reasoning ?? null } : null;
}

/**
 * What the live view shows beside the messages: per thread its stage, budgets, lock attempts,
 * commitments (with the agent's latest valid falsifier) and steelman attempts; and the meter.
 */
export function progressOf(
  id: string,
  digest: DebateDigest,
  status: DebateStatus,
  live: boolean,
  events: number,
): DebateProgress {
  const { state, outcome, header } = digest;
  const usage = outcome.result.systemMetrics;
  return {
    id,
    status,
    live,
    reason: outcome.reason,
    events,
    threads: state.threads.map((t) => {
      const agenda = state.agenda[t.id];
      // Agents with a side: committed ones first (their commit carries horizon and confidence),
      // then any whose side came from a concession or update only.
      const agents = header.agents.map((a) => a.id).filter((a) => t.stances[a] || t.commitments[a]);
      return {
        id: t.id,
        topic: t.topic,
        status: t.status,
        binaryQuestion: t.binaryQuestion,
        budgets: { ...t.budgets },
        messages: { ...t.messages },
        lockAttempts: t.lockAttempts,
        maxLockAttempts: state.config.maxLockAttempts,
        lockFailures: [...t.lastLockFailures],
        participants: [...t.participants],
        awaitingAnalysis: t.awaitingAnalysis,
        commitments: agents.map((agent) => {
          const commit = t.commitments[agent];
          const stance = t.stances[agent];
          return {
            agent,
            side: stance?.side ?? commit?.side ?? 'UNCERTAIN',
            confidence: stance?.confidence ?? commit?.confidence ?? null,
            horizon: commit?.horizon ?? null,
            messageId: commit?.messageId ?? null,
            falsifier: falsifierView(t.falsifiers[agent]),
          };
        }),
        steelmans: t.steelmans.map((s) => ({ from: s.from, to: s.to, grade: s.grade, attempts: s.attempts })),
        agenda: agenda ? { ...agenda } : null,
      };
    }),
    meter: {
      costUsd: usage.costUsd,
      budgetUsd: header.limits.budgetUsd,
      llmCalls: usage.llmCalls,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      messages: usage.messagesTotal,
      maxMessages: header.limits.maxMessages,
      elapsedMs: Math.round(digest.elapsedMs),
      maxDurationMs: header.limits.maxDurationMs,
    },
    degradedAgents: [...outcome.degradedAgents],
  };
}
