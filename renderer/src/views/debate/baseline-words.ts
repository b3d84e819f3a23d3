import type { BaselineComparisonView, ChannelOutput } from '../../../../core/contract';

// Was the debate worth it? The single pass beside the debate, in the words the baseline card uses.

const money = (usd: number) => `$${usd.toFixed(4)}`;

/** Both costs in one sentence, with how many times the single pass the debate took. */
export function baselineCostWords(b: BaselineComparisonView): string {
  const { single, debate } = b.cost;
  const times = single.llmCalls > 0 ? ` (${Math.round((debate.llmCalls / single.llmCalls) * 10) / 10}× the calls)` : '';
  return (
    `The single pass took ${single.llmCalls} call${single.llmCalls === 1 ? '' : 's'} and ${money(single.costUsd)}; ` +
    `the debate ${debate.llmCalls} call${debate.llmCalls === 1 ? '' : 's'} and ${money(debate.costUsd)}${times}.`
  );
}

/** How many debaters answered alone what they ended the debate holding on its crux. */
export function baselineSideWords(b: BaselineComparisonView): string | null {
  const both = b.agents.filter((a) => a.single && a.debate);
  if (both.length === 0) return null;
  const same = both.filter((a) => a.single?.side === a.debate?.side).length;
  return `${same} of ${both.length} debaters ended on the side they took alone; ${both.length - same} moved.`;
}

/** What the single pass would cost, said before it is asked for: its calls, the likely and the worst figure. */
export function baselineOfferWords(e: ChannelOutput<'debates:baselineEstimate'>): string {
  const calls = `${e.calls} call${e.calls === 1 ? '' : 's'}`;
  const cost = e.usd === 0 && e.worstUsd === 0 ? 'free' : `likely ${money(e.usd)}, at worst ${money(e.worstUsd)}`;
  return `Each debater asked once, alone: ${calls}, ${cost} (${e.basis}).`;
}
