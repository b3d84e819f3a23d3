import { describe, expect, it } from 'vitest';
import { attentionOf, visibleEntries } from './attention';
import { replayScript } from './replay';
import { commit, debate, message, script, thread } from './script-builder';

// The attention filter's two promises beyond its scores: what an agent reads only grows at its end
// (each turn's transcript is a prefix of the next, which the prompt cache relies on), and a
// threshold of 0 turns it off.

const agents = debate(['ana', 'ben', 'cy'], { earlyExitMinMessages: 2 });
(agents.agents as { interests?: string[] }[]).forEach((a, i) => {
  a.interests = [['costs'], ['roofs'], ['tariffs']][i] as string[];
});
const lines = [
  thread('t1'),
  message('t1', 'ana', 'CLAIM', {}, { content: 'The costs are low.' }),
  message('t1', 'ben', 'CLAIM', {}, { content: 'The roofs are free.' }),
  message('t1', 'cy', 'CHALLENGE', {}, { content: 'Ben, the tariffs fall.', replyTo: 'm2' }),
  message('t1', 'ana', 'CLARIFY', {}, { content: 'Roofs and tariffs both matter to the costs.' }),
  message('t1', 'ben', 'PROPOSE_CRUX', { question: 'Will the co-op pay back within 8 years?' }),
  commit('t1', 'cy', 'YES'),
  message('t1', 'ana', 'CLARIFY', {}, { content: 'Payback counts from the first panel.' }),
  message('t1', 'ben', 'STEELMAN', { steelmanTarget: 'ana' }, { content: 'Ana holds that it pays.' }),
  message('t1', 'ana', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }, { content: 'Fair.' }),
];

describe('the attention filter', () => {
  it('only ever adds to the end of what an agent reads', () => {
    const seen = (n: number, agent: string) =>
      visibleEntries(replayScript(script(agents, ...lines.slice(0, n))).state, 't1', agent).map((e) => e.id);
    const broken: string[] = [];
    for (const agent of ['ana', 'ben', 'cy'])
      for (let n = 2; n < lines.length; n++) {
        const before = seen(n, agent);
        const after = seen(n + 1, agent);
        if (after.slice(0, before.length).join() !== before.join())
          broken.push(`${agent} at ${n}: ${before} then ${after}`);
      }
    // And the filter does filter.
    const full = replayScript(script(agents, ...lines)).state;
    expect({
      broken,
      ben: visibleEntries(full, 't1', 'ben').map((e) => e.id),
      cy: visibleEntries(full, 't1', 'cy').map((e) => e.id),
    }).toEqual({
      broken: [],
      // m3 names Ben and replies to him; m4 names roofs (0.25 + 0.3 + 0.08 = 0.63); m9 grades his
      // steelman; ana's first claim (0.14) and cy's commitment (0.3 + 0.2 = 0.5) he passes over.
      ben: ['m2', 'm3', 'm4', 'm5', 'm8', 'm9'],
      // m4 names tariffs, m5 proposes the crux (put to everyone), and after cy's commitment (m6)
      // everything of the thread is read.
      cy: ['m3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9'],
    });
  });

  it('is off with a threshold of 0', () => {
    const off = { ...agents, config: { earlyExitMinMessages: 2, attentionThreshold: 0 } };
    const state = replayScript(script(off, ...lines)).state;
    expect(attentionOf(state, 't1', 'ben').every((a) => a.seen && a.why !== 'below')).toBe(true);
  });
});
