import { describe, expect, it } from 'vitest';
import { type DecisionInput, decide, type IdeaFacts, MAX_FAILURES } from './decide';
import type { CriticalChallenge } from './gate';
import { foldLog, type PipelineEntry } from './log';
import { DEFAULT_PIPELINE_SETTINGS, type PaidStep, type PipelineSettings, type StepEstimate } from './steps';

const TODAY = '2026-03-05';
let clock = 0;
const e = (x: Partial<PipelineEntry> & Pick<PipelineEntry, 'step' | 'event'>): PipelineEntry => ({
  at: `2026-03-05T10:00:${String(clock++ % 60).padStart(2, '0')}.000Z`,
  day: TODAY,
  costUsd: 0,
  note: '',
  ...x,
});
const idea = (slug: string, entries: PipelineEntry[], more: Partial<IdeaFacts> = {}): IdeaFacts => ({
  slug,
  title: slug.toUpperCase(),
  pipeline: foldLog(entries),
  current: null,
  locked: [],
  ...more,
});
const free: StepEstimate = { calls: 1, usd: 0, worstCalls: 1, worstUsd: 0, basis: '', cannotRun: null };
const priced = (usd: number, worstUsd: number): StepEstimate => ({ ...free, usd, worstUsd });
const ALL_ON: PipelineSettings = {
  ...DEFAULT_PIPELINE_SETTINGS,
  steps: { capture: true, develop: true, evaluate: true, redteam: true, classify: true },
};
const input = (ideas: IdeaFacts[], more: Partial<DecisionInput> = {}): DecisionInput => ({
  settings: ALL_ON,
  running: true,
  today: TODAY,
  estimates: { develop: free, evaluate: free, redteam: free, classify: free },
  ideas,
  evaluationCapUsd: null,
  ...more,
});
const enrolled = e({ step: 'capture', event: 'enrolled' });
const steps = (d: ReturnType<typeof decide>) => d.queue.map((q) => `${q.slug}:${q.step}:${q.kind}`);

describe('the pipeline decides its next step from data alone', () => {
  it('takes a new idea through the steps that are on, in order, and is done after the last', () => {
    const settings = { ...ALL_ON, steps: { ...ALL_ON.steps, redteam: false } };
    const log: PipelineEntry[] = [enrolled];
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const d = decide(
        input([idea('a', log, { current: seen.includes('evaluate') ? { id: 'e1', stale: false } : null })], {
          settings,
        }),
      );
      if (!d.next) {
        expect(d.finished).toEqual(['a']);
        break;
      }
      seen.push(d.next.step);
      log.push(e({ step: d.next.step, event: 'started' }), e({ step: d.next.step, event: 'done', evaluationId: 'e1' }));
    }
    expect(seen).toEqual(['develop', 'evaluate', 'classify']);
  });

  it('does nothing while stopped, yet says what it would do; an idea never enrolled is not its business', () => {
    const d = decide(input([idea('a', [enrolled]), idea('b', [])], { running: false }));
    expect(d.next).toBeNull();
    expect(steps(d)).toEqual(['a:develop:start']);
  });

  it('finishes what was begun first: a stopped evaluation resumes from its checkpoint before new work', () => {
    const d = decide(
      input([
        idea('new', [enrolled]),
        idea('old', [
          enrolled,
          e({ step: 'develop', event: 'done' }),
          e({ step: 'evaluate', event: 'started', evaluationId: 'e9' }),
          e({ step: 'evaluate', event: 'stopped', evaluationId: 'e9' }),
        ]),
      ]),
    );
    expect(steps(d)).toEqual(['old:evaluate:resume', 'new:develop:start']);
    expect(d.next).toMatchObject({
      slug: 'old',
      evaluationId: 'e9',
      reason: 'it was stopped: it continues from its checkpoint',
    });
  });

  it('refuses what would pass the daily budget, in words, and lets a cheaper step go', () => {
    const settings = { ...ALL_ON, dailyBudgetUsd: 1 };
    const spentToday = e({ step: 'develop', event: 'done', costUsd: 0.9 });
    const yesterday = { ...e({ step: 'develop', event: 'done', costUsd: 5 }), day: '2026-03-04' };
    const d = decide(
      input(
        [
          idea('a', [enrolled, spentToday]),
          idea('b', [
            enrolled,
            yesterday,
            e({ step: 'develop', event: 'done' }),
            e({ step: 'evaluate', event: 'done' }),
          ]),
        ],
        {
          settings,
          estimates: { develop: free, evaluate: priced(0.3, 2), redteam: free, classify: priced(0.01, 0.05) },
        },
      ),
    );
    expect(d.spentTodayUsd).toBeCloseTo(0.9);
    expect(d.refused).toEqual([
      {
        slug: 'a',
        title: 'A',
        step: 'evaluate',
        unlogged: true,
        message:
          'refused: today\'s pipeline spend is $0.9000 of its daily budget of $1.0000; evaluate of "A" would likely cost $0.3000. It waits for tomorrow (local time) or a larger dailyBudgetUsd in pipeline.md.',
      },
    ]);
    // b's red team is free here and its evaluation needs nothing; its cap is what is left today.
    expect(d.next).toMatchObject({ slug: 'b', step: 'redteam', kind: 'skip' });
    expect(d.queue.find((q) => q.slug === 'a')?.capUsd).toBeCloseTo(0.1);
  });

  it('refuses a provider that cannot run, and logs a refusal once a day', () => {
    const estimates = {
      develop: { ...free, cannotRun: 'no ANTHROPIC_API_KEY' },
      evaluate: free,
      redteam: free,
      classify: free,
    };
    const refusedToday = e({ step: 'develop', event: 'refused' });
    const d = decide(input([idea('a', [enrolled]), idea('b', [enrolled, refusedToday])], { estimates }));
    expect(d.refused.map((r) => [r.slug, r.message, r.unlogged])).toEqual([
      ['a', 'refused: develop of "A" cannot run: no ANTHROPIC_API_KEY', true],
      ['b', 'refused: develop of "B" cannot run: no ANTHROPIC_API_KEY', false],
    ]);
    expect(d.next).toBeNull();
  });

  it('holds an idea in the review gate until approved, then resumes that evaluation approved', () => {
    const critical = [
      { id: 'r1c2', round: 1, criterion: 'x', persona: 'skeptic', challenge: 'c', winner: 'RED_TEAM' as const },
    ];
    const held = [
      enrolled,
      e({ step: 'develop', event: 'done' }),
      e({ step: 'evaluate', event: 'started', evaluationId: 'e1' }),
      e({ step: 'evaluate', event: 'held', evaluationId: 'e1', critical }),
    ];
    const d = decide(input([idea('a', held)]));
    expect(d.next).toBeNull();
    expect(d.waiting).toEqual([
      { slug: 'a', title: 'A', step: 'evaluate', evaluationId: 'e1', critical, heldAt: 'review' },
    ]);
    // Approved, only its lock is left: priced as the narrative call, and it must fit at its worst.
    const approved = [...held, e({ step: 'evaluate', event: 'approved', evaluationId: 'e1' })];
    const lockEstimate = priced(0.01, 0.03);
    const after = decide(input([idea('a', approved)], { lockEstimate }));
    expect(after.next).toMatchObject({
      step: 'evaluate',
      kind: 'resume',
      evaluationId: 'e1',
      approved: true,
      lock: 'narrative',
      estimate: lockEstimate,
    });
    const tight = decide(
      input([idea('a', [...approved, e({ step: 'develop', event: 'done', costUsd: 0.98 })])], {
        lockEstimate,
        estimates: { develop: free, evaluate: priced(0.3, 2), redteam: free, classify: free },
      }),
    );
    expect(tight.refused.map((r) => r.message)).toEqual([
      'refused: today\'s pipeline spend is $0.9800 of its daily budget of $1.0000; the lock of evaluate of "A" would cost up to $0.0300. It waits for tomorrow (local time) or a larger dailyBudgetUsd in pipeline.md.',
    ]);
    // Held where its budget ran out, it locks from its figures: nothing to pay, so nothing to refuse.
    const atLimit = [
      ...held.slice(0, -1),
      e({ step: 'evaluate', event: 'held', evaluationId: 'e1', critical, limit: 'budget' }),
    ];
    expect(decide(input([idea('a', atLimit)])).waiting[0]?.heldAt).toBe('budget');
    const spent = e({ step: 'develop', event: 'done', costUsd: 1 });
    const figures = decide(
      input([idea('a', [...atLimit, spent, e({ step: 'evaluate', event: 'approved', evaluationId: 'e1' })])], {
        estimates: { develop: free, evaluate: priced(0.3, 2), redteam: free, classify: free },
      }),
    );
    expect([figures.refused, figures.next?.lock, figures.next?.estimate]).toEqual([[], 'figures', null]);
    // Locked meanwhile by the researcher (resumed from the evaluation view): settled, not run again.
    const locked = decide(input([idea('a', held, { locked: ['e1'] })]));
    expect(locked.next).toMatchObject({ step: 'evaluate', kind: 'settle', evaluationId: 'e1', estimate: null });
  });

  it('sends an idea back to evaluation when the red team’s CRITICAL challenges stand, as often as allowed', () => {
    const challenge = { id: 'r2c1', round: 2, criterion: 'x', persona: 'skeptic', challenge: 'c' };
    const stood: CriticalChallenge[] = [{ ...challenge, winner: 'DRAW' }];
    const defended: CriticalChallenge[] = [{ ...challenge, winner: 'EVALUATOR' }];
    const through = (critical: typeof stood) => [
      enrolled,
      e({ step: 'develop', event: 'done' }),
      e({ step: 'evaluate', event: 'done', evaluationId: 'e1' }),
      e({ step: 'redteam', event: 'done', evaluationId: 'e2', critical }),
    ];
    const current = { id: 'e2', stale: false };
    expect(decide(input([idea('a', through(stood), { current })])).next).toMatchObject({
      step: 'evaluate',
      kind: 'start',
      reevaluation: true,
    });
    expect(decide(input([idea('a', through(defended), { current })])).next).toMatchObject({ step: 'classify' });
    // Once sent back, the limit (1) is reached: a second undefended red team does not loop.
    const twice = [
      ...through(stood),
      e({ step: 'evaluate', event: 'started', reevaluation: true }),
      e({ step: 'evaluate', event: 'done', evaluationId: 'e3' }),
      e({ step: 'redteam', event: 'done', evaluationId: 'e4', critical: stood }),
    ];
    expect(decide(input([idea('a', twice, { current })])).next).toMatchObject({ step: 'classify' });
  });

  it('passes over steps switched off, skips an evaluation that is current, and halts after repeated failures', () => {
    const settings = { ...ALL_ON, steps: { ...ALL_ON.steps, develop: false } };
    const d = decide(input([idea('a', [enrolled], { current: { id: 'e0', stale: false } })], { settings }));
    expect(d.next).toMatchObject({ step: 'evaluate', kind: 'skip', evaluationId: 'e0' });
    const stale = decide(input([idea('a', [enrolled], { current: { id: 'e0', stale: true } })], { settings }));
    expect(stale.next).toMatchObject({ step: 'evaluate', kind: 'start' });

    const failures = Array.from({ length: MAX_FAILURES }, () =>
      e({ step: 'develop', event: 'failed', note: 'the model timed out' }),
    );
    const halted = decide(input([idea('a', [enrolled, ...failures])]));
    expect(halted.next).toBeNull();
    expect(halted.halted[0]?.message).toBe(
      'develop failed 2 times (last: the model timed out); send the idea through again to retry',
    );
    // Sent through again: one more try.
    const retried = decide(input([idea('a', [enrolled, ...failures, e({ step: 'capture', event: 'enrolled' })])]));
    expect(retried.next).toMatchObject({ step: 'develop', kind: 'start' });
  });

  it('lets an evaluation step wait while the idea is evaluated outside the pipeline, and goes on with other ideas', () => {
    const ready = [enrolled, e({ step: 'develop', event: 'done' })];
    const d = decide(input([idea('a', ready), idea('b', [enrolled])], { busy: ['a'] }));
    expect(steps(d)).toEqual(['a:evaluate:start', 'b:develop:start']);
    expect(d.next).toMatchObject({ slug: 'b', step: 'develop' });
    // Only its evaluation waits: a step that runs no evaluation goes ahead.
    expect(decide(input([idea('b', [enrolled])], { busy: ['b'] })).next).toMatchObject({ slug: 'b', step: 'develop' });
  });

  it('caps an evaluation by the workspace’s evaluation budget when that is lower than what is left', () => {
    const d = decide(input([idea('a', [enrolled, e({ step: 'develop', event: 'done' })])], { evaluationCapUsd: 0.25 }));
    expect(d.next).toMatchObject({ step: 'evaluate', capUsd: 0.25 });
    const estimates: Record<PaidStep, StepEstimate> = { develop: free, evaluate: free, redteam: free, classify: free };
    const tight = decide(
      input([idea('a', [enrolled, e({ step: 'develop', event: 'done', costUsd: 0.9 })])], {
        evaluationCapUsd: 0.25,
        estimates,
      }),
    );
    expect(tight.next?.capUsd).toBeCloseTo(0.1);
  });
});
