import { z } from 'zod';
import { hasEffect, type Stakes, targetOf, type ToolName } from './actions';
import type { ProposalOutput } from './answers';

/**
 * Gaming flags: computed by the app, deterministically, before the verifier sees a version. They go
 * to the verifier and the researcher; a flagged medium- or high-stakes proposal waits for the
 * researcher even when the agents agree.
 */
export const FLAGS = ['GENERIC_JUSTIFICATION', 'MISSING_RISK', 'UNDECLARED_EFFECT', 'REPEATS_FAILED'] as const;
export type Flag = (typeof FLAGS)[number];

/** Fewer words than this justify nothing: "this helps cooperation" is value-washing. */
export const MIN_JUSTIFICATION_WORDS = 8;

/** What the council remembers of an earlier proposal: the tool, its target and how it ended. */
export const historyEntrySchema = z.strictObject({
  tool: z.string().min(1),
  target: z.string().min(1),
  outcome: z.enum(['rejected', 'failed', 'reverted', 'recorded']),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** Outcomes that make a repeat suspicious: the council, a check or the researcher said no. */
const BAD_OUTCOMES = new Set<HistoryEntry['outcome']>(['rejected', 'failed', 'reverted']);

function words(text: string): number {
  return text.split(/\s+/).filter((w) => w !== '').length;
}

export function flagsOf(proposal: ProposalOutput, stakes: Stakes, history: readonly HistoryEntry[]): Flag[] {
  const flags = new Set<Flag>();
  for (const justification of Object.values(proposal.valueJustification)) {
    if (justification && words(justification.text) < MIN_JUSTIFICATION_WORDS) flags.add('GENERIC_JUSTIFICATION');
  }
  if (stakes !== 'low' && proposal.risks.length === 0) flags.add('MISSING_RISK');
  for (const action of proposal.actions) {
    const target = targetOf(action);
    // Only what changes the workspace is an effect to declare; a read changes nothing.
    if (hasEffect(action) && target !== null && !proposal.expectedOutcomes.some((o) => o.includes(target)))
      flags.add('UNDECLARED_EFFECT');
    if (
      target !== null &&
      history.some((h) => h.tool === (action.tool as ToolName) && h.target === target && BAD_OUTCOMES.has(h.outcome))
    )
      flags.add('REPEATS_FAILED');
  }
  return FLAGS.filter((f) => flags.has(f));
}
