import { describe, expect, it } from 'vitest';
import { resumeEvaluation } from './drive';
import type { EvaluationInput } from './inputs';
import { replayAnswers, replayEvaluation } from './replay';
import { lineOf, type ScriptObject, script } from './script-builder';
import { runSimulated } from './simulator';
import type { EvaluationState } from './state';
import { createEvaluation } from './state';
import { advance, step } from './step';
import { fourCriteria, SETUP, threeRoundScript } from './test-setup';

// Checkpoints: the state after any input is plain JSON, and folding the input log over the initial
// state rebuilds it exactly, so an interrupted evaluation continues to the same document.

const taxonomy = fourCriteria();
const full = replayEvaluation(threeRoundScript(), taxonomy);

/** The inputs of round `round`: from its first red-team answer to its synthesis. */
function roundSpan(inputs: readonly EvaluationInput[], round: number): [number, number] {
  const first = inputs.findIndex((i) => i.kind === 'redteam' && i.round === round);
  const last = inputs.findIndex((i) => i.kind === 'synthesis' && i.round === round);
  return [first, last];
}

const checkpoint = (state: EvaluationState): EvaluationState => JSON.parse(JSON.stringify(state)) as EvaluationState;

describe('checkpoints', () => {
  it('are plain JSON after every input, and equal to the fold of the inputs so far', () => {
    let state = full.initial;
    full.inputs.forEach((input, i) => {
      state = step(state, input).state;
      expect(checkpoint(state)).toEqual(state);
      if (i % 7 === 0) expect(resumeEvaluation(full.initial, full.inputs.slice(0, i + 1)).state).toEqual(state);
    });
    expect(state.document).toEqual(full.document);
  });

  it('resume mid-round and finish with the same document as an uninterrupted run', () => {
    const [first, last] = roundSpan(full.inputs, 2);
    const cut = first + Math.floor((last - first + 1) / 2);
    const resumed = resumeEvaluation(full.initial, full.inputs.slice(0, cut));
    // Half of round 2: every red-teamer and the first defense are in; the other defense and the rulings are owed.
    expect(resumed.awaiting).toEqual([
      { kind: 'ask', role: 'defense', challengeId: 'r2c2', category: 'risk', criterion: 'gamma' },
      { kind: 'ask', role: 'arbiter', challengeId: 'r2c1', criterion: 'beta' },
    ]);
    const saved = checkpoint(resumed.state);
    for (const input of full.inputs.slice(cut)) advance(saved, input);
    expect(saved.document).toEqual(full.document);
  });

  it('continue from a rebuilt state with the rest of the script', () => {
    const [first, last] = roundSpan(full.inputs, 2);
    const cut = first + Math.floor((last - first + 1) / 2);
    const saved = checkpoint(resumeEvaluation(full.initial, full.inputs.slice(0, cut)).state);
    const rest = script(full.inputs.slice(cut).map((i) => lineOf(i) as ScriptObject));
    expect(replayAnswers(saved, rest).document).toEqual(full.document);
  });

  it('let a simulated evaluation pick up where it stopped', () => {
    const seed = 11;
    const uninterrupted = runSimulated(createEvaluation(SETUP, taxonomy), seed);
    const [first, last] = roundSpan(uninterrupted.inputs, 2);
    const cut = first + Math.floor((last - first + 1) / 2);
    const saved = checkpoint(
      resumeEvaluation(createEvaluation(SETUP, taxonomy), uninterrupted.inputs.slice(0, cut)).state,
    );
    expect(saved.phase).toBe('DEBATING');
    const finished = runSimulated(saved, seed);
    expect(finished.state.document).toEqual(uninterrupted.state.document);
    expect([...uninterrupted.inputs.slice(0, cut), ...finished.inputs]).toEqual(uninterrupted.inputs);
  });
});
