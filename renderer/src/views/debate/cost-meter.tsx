import type { DebateProgress } from '../../../../core/contract';
import { Help } from '../../ui/help';
import { duration, money, tokens } from './format';

function Bar({ label, value, max, text }: { label: string; value: number; max: number; text: string }) {
  return (
    <div className="meter-item">
      <div className="row small">
        <span>{label}</span>
        <span className="muted">{text}</span>
      </div>
      {max > 0 && (
        <meter aria-label={label} min={0} max={max} value={Math.min(value, max)} high={max * 0.9} optimum={0} />
      )}
    </div>
  );
}

/**
 * What the debate has spent so far against its limits: money, messages, time, and the tokens behind
 * them. `posted` is the accepted messages the page has seen (the header's count), when newer than
 * the meter's own figure, so the two never disagree.
 */
export function CostMeter({ meter, posted }: { meter: DebateProgress['meter']; posted?: number }) {
  const messages = Math.max(meter.messages, posted ?? 0);
  return (
    <section className="debate-meter card" aria-label="Cost and tokens" data-testid="meter">
      <Bar
        label="Cost"
        value={meter.costUsd}
        max={meter.budgetUsd}
        text={
          meter.budgetUsd > 0
            ? `${money(meter.costUsd)} of ${money(meter.budgetUsd)}`
            : `${money(meter.costUsd)} (no limit)`
        }
      />
      <Bar
        label="Accepted messages"
        value={messages}
        max={meter.maxMessages}
        text={`${messages} of ${meter.maxMessages}`}
      />
      <Bar
        label="Time"
        value={meter.elapsedMs}
        max={meter.maxDurationMs}
        text={`${duration(meter.elapsedMs)} of ${duration(meter.maxDurationMs)}`}
      />
      <div className="meter-item small">
        <div>
          {meter.llmCalls} calls · {tokens(meter.inputTokens)} in · {tokens(meter.outputTokens)} out
        </div>
        <div className="muted">
          {tokens(meter.cacheReadTokens)} input tokens read from cache
          <Help term="cache-reads" />
        </div>
      </div>
    </section>
  );
}
