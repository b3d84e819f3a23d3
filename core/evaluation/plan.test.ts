import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config';
import { planEvaluation } from './plan';
import { MODE_SETTINGS, MODES } from './vocabulary';

const plan = (mode: (typeof MODES)[number]) =>
  planEvaluation({ mode, config: resolveConfig(mode), categories: 6, redTeam: MODE_SETTINGS[mode].personas.length });
const total = (p: ReturnType<typeof plan>, of: 'likely' | 'worst') => p.calls.reduce((s, c) => s + c[of], 0);

describe('planEvaluation', () => {
  it('plans more calls for a deeper mode, and never fewer at worst than likely', () => {
    const [quick, standard, deep] = MODES.map((m) => plan(m));
    expect(total(standard as ReturnType<typeof plan>, 'likely')).toBeGreaterThan(
      total(quick as ReturnType<typeof plan>, 'likely'),
    );
    expect(total(deep as ReturnType<typeof plan>, 'likely')).toBeGreaterThan(
      total(standard as ReturnType<typeof plan>, 'likely'),
    );
    for (const p of [quick, standard, deep])
      for (const c of p?.calls ?? []) expect(c.worst).toBeGreaterThanOrEqual(c.likely);
  });

  it('plans a quick evaluation as it runs: six scores, two challenge lists, five defences and rulings', () => {
    const byKind = Object.fromEntries(plan('quick').calls.map((c) => [c.kind, c.worst]));
    expect(byKind).toEqual({
      criterion_scores: 6,
      challenges: 2,
      defense: 5,
      ruling: 5,
      round_synthesis: 1,
      narrative: 1,
    });
  });
});
