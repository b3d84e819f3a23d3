import { describe, expect, it } from 'vitest';
import { foldLog, formatEntry, logHeader, type PipelineEntry, parseLog } from './log';

const at = (n: number) => `2026-03-0${n}T10:00:00.000Z`;
const entry = (e: Partial<PipelineEntry> & Pick<PipelineEntry, 'step' | 'event'>, n = 1): PipelineEntry => ({
  at: at(n),
  day: `2026-03-0${n}`,
  costUsd: 0,
  note: '',
  ...e,
});

describe('the pipeline log', () => {
  it('reads back exactly what it wrote, among the researcher’s own lines, whatever the note holds', () => {
    const written: PipelineEntry[] = [
      entry({ step: 'capture', event: 'enrolled', note: 'a new idea seen in the folder' }),
      entry({
        step: 'evaluate',
        event: 'held',
        costUsd: 0.0123,
        evaluationId: '01jabc',
        note: 'waits: a challenge says "the --> market" is\nsmall',
        critical: [
          { id: 'r1c1', round: 1, criterion: 'market-size', persona: 'skeptic', challenge: 'x --> y', winner: null },
        ],
      }),
    ];
    const text = `${logHeader('Seed library')}${formatEntry(written[0] as PipelineEntry)}my own remark, kept\n${formatEntry(written[1] as PipelineEntry)}`;
    expect(text.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(2);
    // The human half of the line says what happened and what it cost.
    expect(text).toContain('· **evaluate** · held · $0.0123 — waits: a challenge says "the —> market" is small <!--');
    expect(parseLog(text, 'ideas/x/pipeline.md')).toEqual(written);
  });

  it('names the file, line and field of a damaged entry', () => {
    const good = formatEntry(entry({ step: 'develop', event: 'done' }));
    const bad = good.replace('"costUsd":0', '"costUsd":-1');
    expect(() => parseLog(`# log\n${good}${bad}`, 'ideas/x/pipeline.md')).toThrow(
      'ideas/x/pipeline.md:3: costUsd: Too small: expected number to be >=0',
    );
    expect(() => parseLog('- x <!-- pipeline {nope} -->', 'p.md')).toThrow(/^p\.md:1: the entry's data is not JSON/);
  });

  it('folds steps, costs per day and evaluation, approvals and a red team that sends the idea back', () => {
    const critical = [
      {
        id: 'r2c1',
        round: 2,
        criterion: 'market-size',
        persona: 'skeptic',
        challenge: 'c',
        winner: 'RED_TEAM' as const,
      },
    ];
    const p = foldLog([
      entry({ step: 'capture', event: 'enrolled' }, 1),
      entry({ step: 'develop', event: 'failed', costUsd: 0.01, note: 'timeout' }, 1),
      entry({ step: 'develop', event: 'done', costUsd: 0.02 }, 2),
      entry({ step: 'evaluate', event: 'started', evaluationId: 'e1' }, 2),
      entry({ step: 'evaluate', event: 'held', evaluationId: 'e1', costUsd: 0.5, critical }, 2),
      entry({ step: 'evaluate', event: 'approved', evaluationId: 'e1' }, 3),
      entry({ step: 'evaluate', event: 'done', evaluationId: 'e1', costUsd: 0.1 }, 3),
      entry({ step: 'redteam', event: 'done', evaluationId: 'e2', costUsd: 0.2, critical }, 3),
      entry({ step: 'classify', event: 'refused', note: 'over budget' }, 3),
    ]);
    expect(p.enrolled).toBe(true);
    expect(p.steps.develop).toMatchObject({ status: 'done', failures: 0 });
    expect(p.steps.evaluate).toMatchObject({ status: 'done', evaluationId: 'e1' });
    expect(p.steps.classify).toMatchObject({ status: 'pending', refusedOn: '2026-03-03' });
    expect(p.approved).toEqual(['e1']);
    expect(p.reevaluationDue).toBe(true);
    expect(p.costByDay).toEqual({ '2026-03-01': 0.01, '2026-03-02': 0.52, '2026-03-03': 0.30000000000000004 });
    expect(p.costByEvaluation).toEqual({ e1: 0.6, e2: 0.2 });

    // The re-evaluation starting answers the red team: due no more, counted once.
    const again = foldLog([
      ...[entry({ step: 'redteam', event: 'done', critical }, 3)],
      entry({ step: 'evaluate', event: 'started', reevaluation: true, evaluationId: 'e3' }, 4),
      entry({ step: 'evaluate', event: 'stopped', evaluationId: 'e3' }, 4),
      entry({ step: 'evaluate', event: 'started', evaluationId: 'e3' }, 4),
    ]);
    expect([again.reevaluationDue, again.reevaluations, again.steps.evaluate.status]).toEqual([false, 1, 'running']);
  });
});
