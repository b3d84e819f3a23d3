// The crux protocol: a pure state machine (`step`) plus the replay driver that tests it.

export type { AnalysisOutput } from './analysis';
export { analysisOutputSchema } from './analysis';
export type { CruxConfig, CruxConfigOverrides } from './config';
export { DEFAULT_CONFIG, resolveConfig } from './config';
export { CruxInputError, ScriptError } from './errors';
export type { CruxEffect, CruxEvent } from './events';
export type { Falsifier } from './falsifier';
export { isValidFalsifier } from './falsifier';
export type { CruxInput } from './inputs';
export type { ReplayRun } from './replay';
export { replayScript, runReplay } from './replay';
export { parseScript } from './replay-script';
export type { CruxResult, SystemMetrics, ThreadResult } from './result';
export { buildResult } from './result';
export type { AgentProfile, CruxState, DebateSetup, ThreadState } from './state';
export { createState } from './state';
export type { StepResult } from './step';
export { advance, step } from './step';
export * from './vocabulary';
