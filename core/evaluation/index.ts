// The evaluation protocol: a pure, replayable state machine (`step`), its replay driver, the
// figures, the final synthesis document, reopening, and an offline simulator.

export type {
  ArbiterAnswer,
  DefenseAnswer,
  EvaluatorAnswer,
  Narrative,
  RaisedChallenge,
  RedTeamAnswer,
  SynthesisAnswer,
} from './answers';
export {
  arbiterAnswerSchema,
  defenseAnswerSchema,
  evaluatorAnswerSchema,
  narrativeSchema,
  redTeamAnswerSchema,
  synthesisAnswerSchema,
} from './answers';
export { proposeTargets, selectChallenges, targetPriority } from './challenges';
export type { EvaluationConfig, EvaluationConfigOverrides } from './config';
export { completeConfig, configOverridesSchema, DEFAULT_CONFIG, resolveConfig } from './config';
export type { EvaluationOptions, ResolvedOptions } from './options';
export {
  checkOptions,
  configFromOptions,
  evaluationOptionsSchema,
  OPTION_NAMES,
  optionsFromPairs,
  optionsOf,
} from './options';
export type { ConvergenceReport } from './convergence';
export { checkConvergence } from './convergence';
export type { FinalSynthesisDocument, RoundSummary } from './document';
export { buildDocument, convergenceReportSchema, finalSynthesisDocumentSchema } from './document';
export type { Answerer, Drive, Resumed } from './drive';
export { driveEvaluation, resumeEvaluation } from './drive';
export { EvaluationInputError, ReopenError, ScriptError } from './errors';
export type { EvaluationEvent } from './events';
export * from './figures';
export type { EvaluationInput } from './inputs';
export { canTransition, InvalidTransitionError, TRANSITIONS, transition } from './phases';
export type { ReopenOptions, ReopenTrigger } from './reopen';
export { MIN_DISPUTE_REASON, reopen } from './reopen';
export type { EvaluationReplayRun } from './replay';
export { replayAnswers, replayEvaluation, replayPartial, runEvaluationReplay } from './replay';
export { evaluationLineSchema } from './replay-script';
export { runSimulated, simulateAnswer, simulateEvaluation } from './simulator';
export type {
  ChallengeRecord,
  EvaluationAsk,
  EvaluationEffect,
  EvaluationSetup,
  EvaluationState,
  RoundRecord,
} from './state';
export { createEvaluation } from './state';
export type { StepResult } from './step';
export { addRoundRefusal, advance, positionsInPlay, step } from './step';
export * from './vocabulary';
