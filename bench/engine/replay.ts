import type { AnalysisOutput, CruxConfigOverrides, CruxEvent, CruxInput, CruxState } from '../../core/crux';
import { advance, createState, parseScript, resolveConfig } from '../../core/crux';
import type { AgentProfile } from '../../core/crux/state';
import type { DebateSink } from '../../core/engine/crux-engine';
import type { NewDebateRecord } from '../../core/engine/debate-record';

/**
 * The replay under test: a script turned into the inputs a live driver would have fed the protocol,
 * folded through `advance` (the in-place step the engine uses), with every `analyse` effect answered
 * at once from the script's crystallize lines, as `replayScript` does. Unlike `replayScript`, it can
 * hand each input and the events it caused to a sink as debate records, exactly the records the live
 * engine writes (`CruxEngine.apply`).
 */
export interface ReplayPlan {
  topic: string;
  agents: AgentProfile[];
  config: CruxConfigOverrides;
  inputs: CruxInput[];
  answers: ReadonlyMap<string, AnalysisOutput>;
}

export interface ReplayOutcome {
  state: CruxState;
  inputs: number;
  events: number;
  /** Accepted plus blocked agent messages: what an agent said, whatever the protocol made of it. */
  messages: number;
}

/** Parses a script into a plan. Done outside the timed part: a plan is built fresh for every run. */
export function planReplay(scriptText: string): ReplayPlan {
  const script = parseScript(scriptText);
  const { entry } = script.debate;
  const agents = entry.agents.map((a) => ({
    id: a.id,
    name: a.name ?? a.id,
    ...(a.topClaim ? { topClaim: a.topClaim } : {}),
    ...(a.defaultHorizon ? { defaultHorizon: a.defaultHorizon } : {}),
  }));
  const inputs = script.steps.map(({ entry: step }) => inputOf(step));
  const labels = script.coalitionLabels.flatMap((l) => l.entry.labels);
  if (labels.length > 0) inputs.push({ kind: 'coalition_labels', labels });
  const answers = new Map(Object.entries(script.crystallize).map(([thread, line]) => [thread, line.entry.output]));
  return { topic: entry.topic, agents, config: entry.config, inputs, answers };
}

function inputOf(step: ReturnType<typeof parseScript>['steps'][number]['entry']): CruxInput {
  switch (step.type) {
    case 'thread':
      return {
        kind: 'thread',
        id: step.id,
        topic: step.topic,
        ...(step.binaryQuestion === undefined ? {} : { binaryQuestion: step.binaryQuestion }),
      };
    case 'propose_thread':
      return {
        kind: 'propose_thread',
        id: step.id,
        by: step.by,
        topic: step.topic,
        binaryQuestion: step.binaryQuestion ?? null,
        supporters: step.supporters,
      };
    case 'message':
      return {
        kind: 'message',
        thread: step.thread,
        agent: step.agent,
        move: step.move,
        content: step.content,
        ...(step.replyTo == null ? {} : { replyTo: step.replyTo }),
        meta: step.meta ?? {},
      };
  }
}

/** The records the engine logs for one applied input: the input, then each event it caused. */
export function recordsOf(input: CruxInput, events: readonly CruxEvent[]): NewDebateRecord[] {
  const records: NewDebateRecord[] = [{ type: 'input', input: input as unknown as Record<string, unknown> }];
  for (const event of events) records.push({ type: 'event', event: event as unknown as Record<string, unknown> });
  return records;
}

/** Folds the plan through the protocol; with a sink, every input and its events are logged. */
export function runReplayPlan(plan: ReplayPlan, sink: DebateSink | null): ReplayOutcome {
  const state = createState({ topic: plan.topic, agents: plan.agents, config: resolveConfig(plan.config) });
  let inputs = 0;
  let events = 0;
  const apply = (input: CruxInput) => {
    const out = advance(state, input);
    inputs++;
    events += out.events.length;
    sink?.append(recordsOf(input, out.events));
    return out.effects;
  };
  for (const input of plan.inputs) {
    let effects = apply(input);
    // A live driver would now await its crystallizer; the script already holds the answer.
    while (effects.length > 0) {
      // Only analyses: the bench's scripts hold no answers for reviews or relations between cruxes.
      effects = effects.flatMap((effect) =>
        effect.kind === 'analyse'
          ? apply({ kind: 'crystallize_output', thread: effect.thread, output: answerFor(plan, effect.thread) })
          : [],
      );
    }
  }
  return { state, inputs, events, messages: state.counters.messagesTotal + state.counters.messagesBlocked };
}

function answerFor(plan: ReplayPlan, thread: string): AnalysisOutput {
  const answer = plan.answers.get(thread);
  if (!answer)
    throw new Error(`thread "${thread}" reached crystallization but the script has no crystallize line for it`);
  return answer;
}
