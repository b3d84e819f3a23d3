import { resolveConfig } from './config';
import { CruxInputError, ScriptError } from './errors';
import type { CruxEvent } from './events';
import type { CruxInput } from './inputs';
import type { ParsedScript } from './replay-script';
import { parseScript } from './replay-script';
import type { CruxResult } from './result';
import { buildResult } from './result';
import type { AgentProfile, CruxState } from './state';
import { DEVILS_ADVOCATE, globalStop } from './honesty';
import { createState } from './state';
import { advance } from './step';

// The replay driver: feeds a script's lines to the state machine in order and answers its
// `analyse` requests from the script's crystallize lines. It is the protocol's test harness, so
// anything the script gets wrong stops the run with the line that is at fault.

export interface ReplayRun {
  state: CruxState;
  events: CruxEvent[];
  result: CruxResult;
}

/** Runs a script and returns the debate's result; a bad script throws a ScriptError. */
export function runReplay(scriptText: string): CruxResult {
  return replayScript(scriptText).result;
}

/** Like runReplay, but also hands back the final state and the full event log. */
export function replayScript(scriptText: string): ReplayRun {
  const script = parseScript(scriptText);
  // Reference errors found up front wait their turn, so the earliest faulty line is reported.
  const deferred = checkReferences(script);

  const { debate } = script;
  const agents: AgentProfile[] = debate.entry.agents.map((a) => ({
    id: a.id,
    name: a.name ?? a.id,
    ...(a.topClaim ? { topClaim: a.topClaim } : {}),
    ...(a.defaultHorizon ? { defaultHorizon: a.defaultHorizon } : {}),
    ...(a.interests && a.interests.length > 0 ? { interests: [...a.interests] } : {}),
  }));
  let state = createState({ topic: debate.entry.topic, agents, config: resolveConfig(debate.entry.config) });
  const events: CruxEvent[] = [];

  const apply = (input: CruxInput, line: number) => {
    let out: ReturnType<typeof advance>;
    try {
      out = advance(state, input);
    } catch (e) {
      if (e instanceof CruxInputError) throw new ScriptError(line, e.message);
      throw e;
    }
    state = out.state;
    events.push(...out.events);
    return out.effects;
  };

  const reviewsUsed: Record<string, number> = {};
  for (const { line, entry } of script.steps) {
    if (deferred && deferred.line < line) throw deferred;
    let input: CruxInput;
    if (entry.type === 'thread') {
      input = {
        kind: 'thread',
        id: entry.id,
        topic: entry.topic,
        ...(entry.binaryQuestion === undefined ? {} : { binaryQuestion: entry.binaryQuestion }),
      };
    } else if (entry.type === 'propose_thread') {
      input = {
        kind: 'propose_thread',
        id: entry.id,
        by: entry.by,
        topic: entry.topic,
        binaryQuestion: entry.binaryQuestion ?? null,
        supporters: entry.supporters,
      };
    } else {
      const meta = entry.meta ?? {};
      // Agent ids inside meta are script facts too: a typo there is the script's fault, not a move
      // an agent could be re-asked about.
      for (const key of ['steelmanTarget', 'targetFalsifierOf'] as const) {
        const ref = meta[key];
        if (typeof ref === 'string' && !agents.some((a) => a.id === ref)) {
          throw new ScriptError(line, `unknown agent id "${ref}" in meta.${key}`);
        }
      }
      input = {
        kind: 'message',
        thread: entry.thread,
        agent: entry.agent,
        move: entry.move,
        content: entry.content,
        ...(entry.replyTo == null ? {} : { replyTo: entry.replyTo }),
        meta,
      };
    }

    // Answer analysis requests at once, the way a live driver would await its crystallizer.
    let effects = apply(input, line);
    while (effects.length > 0) {
      const next: typeof effects = [];
      for (const effect of effects) {
        if (effect.kind === 'relate') {
          // A pair no line speaks of was simply not looked at: older scripts replay as they did.
          const relation = script.relations[`${effect.a}|${effect.b}`];
          if (!relation) continue;
          const { entry: r } = relation;
          next.push(
            ...apply(
              {
                kind: 'crux_relation',
                a: r.a,
                b: r.b,
                relation: r.relation,
                ...(r.from === undefined ? {} : { from: r.from }),
                confidence: r.confidence,
                sketch: r.sketch,
              },
              relation.line,
            ),
          );
          continue;
        }
        if (effect.kind === 'check_relation') {
          const relation = script.relations[`${effect.a}|${effect.b}`];
          const check = relation?.entry.check;
          if (!relation || !check) {
            throw new ScriptError(
              relation?.line ?? line,
              `the relation of "${effect.a}" and "${effect.b}" passed the thresholds, so it needs a check ({"agrees":…,"note":…})`,
            );
          }
          next.push(...apply({ kind: 'relation_check', a: effect.a, b: effect.b, ...check }, relation.line));
          continue;
        }
        if (effect.kind === 'review') {
          // Each review of a thread takes the next crux_review line for it.
          const review = script.reviews[effect.thread]?.[reviewsUsed[effect.thread] ?? 0];
          if (!review) {
            throw new ScriptError(line, `the crux of thread "${effect.thread}" was challenged but no crux_review line answers it`);
          }
          reviewsUsed[effect.thread] = (reviewsUsed[effect.thread] ?? 0) + 1;
          next.push(...apply({ kind: 'crux_review', thread: effect.thread, answer: review.entry }, review.line));
          continue;
        }
        const answer = script.crystallize[effect.thread];
        if (!answer) {
          throw new ScriptError(line, `thread "${effect.thread}" reached crystallization but no crystallize line names it`);
        }
        next.push(...apply({ kind: 'crystallize_output', thread: effect.thread, output: answer.entry.output }, answer.line));
      }
      effects = next;
    }
    // A debate-wide stop rule ends the debate here, as a live driver would: later lines are not applied.
    const stop = globalStop(state);
    if (stop !== null) {
      apply({ kind: 'stop', reason: stop }, line);
      break;
    }
  }

  if (deferred) throw deferred;

  const labels = script.coalitionLabels.flatMap((l) => l.entry.labels);
  if (labels.length > 0) apply({ kind: 'coalition_labels', labels }, script.coalitionLabels[0]?.line ?? debate.line);
  return { state, events, result: buildResult(state) };
}

/**
 * Checks the references that do not depend on the order of events (agents named in crystallize
 * and coalition_labels lines, the threads crystallize lines name) and returns the earliest
 * problem, if any. Duplicate agent ids stop the run at once: nothing can be applied without them.
 */
function checkReferences(script: ParsedScript): ScriptError | null {
  const agentIds = new Set<string>();
  for (const a of script.debate.entry.agents) {
    if (agentIds.has(a.id)) throw new ScriptError(script.debate.line, `duplicate agent id "${a.id}"`);
    agentIds.add(a.id);
  }
  // The devil's advocate may join later (./honesty.ts); if it never does, naming it fails where it is applied.
  const unknownAgent = (ids: Iterable<string>) => [...ids].find((id) => !agentIds.has(id) && id !== DEVILS_ADVOCATE);
  const problems: ScriptError[] = [];

  const threadIds = new Set(script.steps.flatMap(({ entry }) => (entry.type === 'message' ? [] : [entry.id])));
  for (const [thread, { line, entry }] of Object.entries(script.crystallize)) {
    const bad = unknownAgent([...Object.keys(entry.output.positions), ...Object.keys(entry.output.counterfactual)]);
    if (!threadIds.has(thread)) problems.push(new ScriptError(line, `unknown thread id "${thread}"`));
    else if (bad !== undefined) problems.push(new ScriptError(line, `unknown agent id "${bad}"`));
  }
  for (const [thread, lines] of Object.entries(script.reviews)) {
    for (const { line, entry } of lines) {
      const bad = 'output' in entry ? unknownAgent([...Object.keys(entry.output.positions), ...Object.keys(entry.output.counterfactual)]) : undefined;
      if (!threadIds.has(thread)) problems.push(new ScriptError(line, `unknown thread id "${thread}"`));
      else if (bad !== undefined) problems.push(new ScriptError(line, `unknown agent id "${bad}"`));
    }
  }
  for (const { line, entry } of Object.values(script.relations)) {
    const unknown = [entry.a, entry.b, ...(entry.from ? [entry.from] : [])].find((t) => !threadIds.has(t));
    if (unknown !== undefined) problems.push(new ScriptError(line, `unknown thread id "${unknown}"`));
  }
  for (const { line, entry } of script.coalitionLabels) {
    const bad = unknownAgent(entry.labels.flatMap((l) => l.members));
    if (bad !== undefined) problems.push(new ScriptError(line, `unknown agent id "${bad}"`));
  }
  return problems.reduce<ScriptError | null>((first, p) => (first === null || p.line < first.line ? p : first), null);
}
