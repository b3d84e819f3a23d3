import type { Taxonomy } from '../taxonomy/taxonomy';
import type { FinalSynthesisDocument } from './document';
import { EvaluationInputError, ScriptError } from './errors';
import type { EvaluationEvent } from './events';
import type { EvaluationInput } from './inputs';
import type { EvaluationLine, Numbered, ScriptContext, ScriptStep } from './replay-script';
import { parseHeader, parseSteps, scriptLines } from './replay-script';
import type { EvaluationAsk, EvaluationState } from './state';
import { createEvaluation } from './state';
import { advance } from './step';

// The replay driver: the evaluation's test harness. Each ask is answered from the queue of its
// role, in the order the machine asks; control lines fire as soon as every answer line above them
// has been used. Anything the script gets wrong stops the run with the line at fault.

export interface EvaluationReplayRun {
  /** The state before the first input: with `inputs`, the whole log of the run. */
  initial: EvaluationState;
  state: EvaluationState;
  inputs: EvaluationInput[];
  events: EvaluationEvent[];
  document: FinalSynthesisDocument;
}

/** Runs a script and returns the locked evaluation's document; a bad script throws a ScriptError. */
export function runEvaluationReplay(text: string, taxonomy: Taxonomy): FinalSynthesisDocument {
  return replayEvaluation(text, taxonomy).document;
}

/** Like runEvaluationReplay, but also hands back the log, the final state and the events. */
export function replayEvaluation(text: string, taxonomy: Taxonomy): EvaluationReplayRun {
  const lines = scriptLines(text);
  const header = parseHeader(lines);
  const initial = initialState(header, taxonomy);
  const steps = parseSteps(lines.slice(header.line), contextOf(initial), header.line);
  const out = run(initial, steps, header.line, lines.length, false);
  if (!out.state.document)
    throw new ScriptError(lines.length, `the script ended with the evaluation ${out.state.phase}`);
  return { ...out, document: out.state.document };
}

function initialState(header: Numbered<EvaluationLine>, taxonomy: Taxonomy): EvaluationState {
  const { entry } = header;
  try {
    return createEvaluation(
      {
        evaluationId: entry.evaluationId ?? `replay-${entry.idea.id}`,
        idea: entry.idea,
        mode: entry.mode,
        contentHash: entry.contentHash,
        ...(entry.information ? { information: entry.information } : {}),
        ...(entry.config ? { config: entry.config } : {}),
        ...(entry.startedAt === undefined ? {} : { startedAt: entry.startedAt }),
      },
      taxonomy,
    );
  } catch (e) {
    if (e instanceof EvaluationInputError) throw new ScriptError(header.line, e.message);
    throw e;
  }
}

/**
 * Runs a script as far as its answers go and returns the state there, locked or not: for tests
 * and tools that look at an evaluation mid-way. Script errors still throw.
 */
export function replayPartial(text: string, taxonomy: Taxonomy): Omit<EvaluationReplayRun, 'document'> {
  const lines = scriptLines(text);
  const header = parseHeader(lines);
  const initial = initialState(header, taxonomy);
  const steps = parseSteps(lines.slice(header.line), contextOf(initial), header.line);
  return run(initial, steps, header.line, lines.length, true);
}

/**
 * Continues any unstarted or running evaluation (a reopened one, a resumed checkpoint) with a
 * script of answer and control lines only.
 */
export function replayAnswers(state: EvaluationState, text: string): EvaluationReplayRun {
  const lines = scriptLines(text);
  const out = run(state, parseSteps(lines, contextOf(state)), 1, lines.length, false);
  if (!out.state.document)
    throw new ScriptError(lines.length, `the script ended with the evaluation ${out.state.phase}`);
  return { ...out, document: out.state.document };
}

function contextOf(state: EvaluationState): ScriptContext {
  return {
    categories: state.categories.map((c) => c.id),
    personas: state.personas,
    mode: state.mode,
    scoreAdjustmentRange: state.config.scoreAdjustmentRange,
  };
}

export function queueOf(ask: EvaluationAsk): string {
  if (ask.role === 'evaluator') return `evaluator:${ask.category}`;
  if (ask.role === 'redteam') return `redteam:${ask.persona}`;
  return ask.role;
}

function describeAsk(ask: EvaluationAsk): string {
  switch (ask.role) {
    case 'evaluator':
      return `the initial scores of ${ask.category}`;
    case 'redteam':
      return `round ${ask.round}'s challenges`;
    case 'defense':
      return `the defense of ${ask.challengeId} on ${ask.criterion}`;
    case 'arbiter':
      return `the ruling on ${ask.challengeId}`;
    case 'synthesis':
      return `the synthesis of round ${ask.round}`;
    case 'narrative':
      return 'the final narrative';
  }
}

function inputFor(ask: EvaluationAsk, step: Extract<ScriptStep, { kind: 'answer' }>): EvaluationInput {
  const at = step.at === undefined ? {} : { at: step.at };
  const a = step.answer;
  if (ask.role === 'evaluator' && a.role === 'evaluator')
    return { kind: 'evaluator', category: ask.category, answer: a.answer, ...at };
  if (ask.role === 'redteam' && a.role === 'redteam')
    return { kind: 'redteam', persona: ask.persona, round: ask.round, answer: a.answer, ...at };
  if (ask.role === 'defense' && a.role === 'defense')
    return { kind: 'defense', challengeId: ask.challengeId, answer: a.answer, ...at };
  if (ask.role === 'arbiter' && a.role === 'arbiter')
    return { kind: 'arbiter', challengeId: ask.challengeId, answer: a.answer, ...at };
  if (ask.role === 'synthesis' && a.role === 'synthesis')
    return { kind: 'synthesis', round: ask.round, answer: a.answer, ...at };
  if (ask.role === 'narrative' && a.role === 'narrative') return { kind: 'narrative', answer: a.answer, ...at };
  throw new Error(`replay: a ${a.role} answer in the ${queueOf(ask)} queue`);
}

function controlInput(step: Exclude<ScriptStep, { kind: 'answer' }>): EvaluationInput {
  const at = step.at === undefined ? {} : { at: step.at };
  return step.kind === 'fail' ? { kind: 'fail', reason: step.reason, ...at } : { kind: step.kind, ...at };
}

function run(
  start: EvaluationState,
  steps: Numbered<ScriptStep>[],
  startLine: number,
  lastLine: number,
  partial: boolean,
): Omit<EvaluationReplayRun, 'document'> {
  const initial = JSON.parse(JSON.stringify(start)) as EvaluationState;
  const state = JSON.parse(JSON.stringify(start)) as EvaluationState;
  const inputs: EvaluationInput[] = [];
  const events: EvaluationEvent[] = [];
  const queues = new Map<string, Numbered<Extract<ScriptStep, { kind: 'answer' }>>[]>();
  const controls: Numbered<Exclude<ScriptStep, { kind: 'answer' }>>[] = [];
  for (const s of steps) {
    if (s.entry.kind === 'answer') {
      const q = queues.get(s.entry.queue) ?? [];
      q.push({ line: s.line, entry: s.entry });
      queues.set(s.entry.queue, q);
    } else controls.push({ line: s.line, entry: s.entry });
  }
  const used = new Set<number>();
  /** The line whose input opened each ask, to report a missing answer where the need arose. */
  const openedAt = new Map<EvaluationAsk, number>();
  let lastFed = startLine;

  const feed = (input: EvaluationInput, line: number) => {
    let out: ReturnType<typeof advance>;
    try {
      out = advance(state, input);
    } catch (e) {
      if (e instanceof EvaluationInputError) throw new ScriptError(line, e.message);
      throw e;
    }
    inputs.push(input);
    events.push(...out.events);
    lastFed = line;
    for (const a of state.awaiting) if (!openedAt.has(a)) openedAt.set(a, line);
  };
  // `advance` works in place, so the asks in `state.awaiting` keep their identity across steps.
  const fireControls = () => {
    while (controls.length > 0 && state.phase !== 'LOCKED') {
      const next = controls[0];
      if (!next) return;
      const pendingAbove = steps.some((s) => s.entry.kind === 'answer' && s.line < next.line && !used.has(s.line));
      if (pendingAbove) return;
      controls.shift();
      used.add(next.line);
      feed(controlInput(next.entry), next.line);
      if (state.phase === 'PENDING') feed({ kind: 'start' }, next.line);
    }
  };

  if (state.phase === 'PENDING') feed({ kind: 'start' }, startLine);
  for (;;) {
    fireControls();
    if (state.phase === 'LOCKED' || state.phase === 'FAILED') break;
    const ask = state.awaiting[0];
    if (!ask) break;
    const queue = queueOf(ask);
    const answer = queues.get(queue)?.shift();
    if (!answer) {
      if (partial) break;
      throw new ScriptError(
        openedAt.get(ask) ?? lastFed,
        `no answer for ${queue}: the evaluation asks for ${describeAsk(ask)} and the script has no more ${queue} lines`,
      );
    }
    used.add(answer.line);
    feed(inputFor(ask, answer.entry), answer.line);
  }

  if (partial) return { initial, state, inputs, events };
  if (state.phase === 'FAILED') throw new ScriptError(lastFed, `the evaluation failed: ${state.failure}`);
  const unusedAnswer = steps.find((s) => s.entry.kind === 'answer' && !used.has(s.line));
  if (unusedAnswer && unusedAnswer.entry.kind === 'answer') {
    throw new ScriptError(
      unusedAnswer.line,
      `this ${unusedAnswer.entry.queue} answer was never asked for: the evaluation locked at line ${lastFed}`,
    );
  }
  const unusedControl = controls[0];
  if (unusedControl) {
    throw new ScriptError(
      unusedControl.line,
      `this ${unusedControl.entry.kind} line never took effect: the evaluation locked at line ${lastFed}`,
    );
  }
  if (!state.document) throw new ScriptError(lastLine, `the script ended with the evaluation ${state.phase}`);
  return { initial, state, inputs, events };
}
