import { ScriptError } from '../text/script-lines';
import { resolveArenaConfig } from './config';
import { ArenaInputError } from './errors';
import { type ArenaAsk, type ArenaInput, describeAsk } from './inputs';
import { type ArenaHeaderLine, type ArenaScriptLine, parseArenaLine } from './replay-script';
import { type ArenaResult, arenaResult } from './result';
import { type ArenaState, createArena } from './state';
import { answers, arenaAsks, step } from './step';

// The replay driver, the arena's test harness: every line after the header must be the answer the
// arena asks for next (within a round, the agents in header order), and anything the script gets
// wrong stops the replay with the line at fault.

export interface ArenaReplayRun {
  state: ArenaState;
  inputs: ArenaInput[];
  result: ArenaResult;
}

export function runArenaReplay(text: string): ArenaResult {
  return replayArena(text).result;
}

export function replayArena(text: string): ArenaReplayRun {
  const lines = text.split(/\r?\n/);
  let header: { line: number; entry: ArenaHeaderLine } | null = null;
  let state: ArenaState | null = null;
  let last = 0;
  const inputs: ArenaInput[] = [];
  lines.forEach((textLine, index) => {
    const line = index + 1;
    if (textLine.trim() === '') return;
    last = line;
    const entry = parseArenaLine(textLine, line);
    if (!header || !state) {
      if (entry.type !== 'arena') throw new ScriptError(line, 'the first line must be the arena header');
      header = { line, entry };
      state = arenaFromHeader(entry, line);
      return;
    }
    if (entry.type === 'arena') throw new ScriptError(line, `a second arena header (the first is line ${header.line})`);
    const input = inputOf(entry);
    if ('agent' in input && !state.agents.some((a) => a.id === input.agent))
      throw new ScriptError(
        line,
        `unknown agent "${input.agent}" (the agents are ${state.agents.map((a) => a.id).join(', ')})`,
      );
    const due = arenaAsks(state);
    const next = due[0];
    if (!next) throw new ScriptError(line, `never asked for: ${said(input)} after the arena ended (${state.outcome})`);
    if (!answers(input, next)) {
      if (due.some((a) => answers(input, a)))
        throw new ScriptError(line, `out of order: ${said(input)} where the arena asks for ${describeAsk(next)}`);
      throw new ScriptError(line, `never asked for: ${said(input)} (the arena asks for ${describeAsk(next)})`);
    }
    try {
      state = step(state, input).state;
    } catch (e) {
      if (e instanceof ArenaInputError) throw new ScriptError(line, e.message);
      throw e;
    }
    inputs.push(input);
  });
  if (!state) throw new ScriptError(1, 'empty script: the first line must be the arena header');
  const final: ArenaState = state;
  const result = arenaResult(final);
  if (!result) {
    const next = arenaAsks(final)[0] as ArenaAsk;
    throw new ScriptError(last + 1, `missing answer: the script ends where the arena asks for ${describeAsk(next)}`);
  }
  return { state: final, inputs, result };
}

function arenaFromHeader(entry: ArenaHeaderLine, line: number): ArenaState {
  const ids = entry.agents.map((a) => a.id);
  const twice = ids.find((id, i) => ids.indexOf(id) < i);
  if (twice) throw new ScriptError(line, `agent "${twice}" is listed twice`);
  if (ids.includes(entry.judge)) throw new ScriptError(line, `the judge "${entry.judge}" is also an agent`);
  const config = resolveArenaConfig(entry.config ?? {});
  // An embedding is a call to an outside service: a script cannot stand in for it.
  if (config.similarity === 'embedding')
    throw new ScriptError(line, 'the embedding similarity cannot be replayed (use "lexical" or "judged")');
  const unknown = Object.keys(entry.ratings ?? {}).filter((id) => !ids.includes(id));
  if (unknown.length > 0) throw new ScriptError(line, `ratings for unknown agents: ${unknown.join(', ')}`);
  return createArena({
    topic: entry.topic,
    agents: entry.agents.map((a) => ({ id: a.id, name: a.name ?? a.id })),
    judge: entry.judge,
    config,
    ...(entry.ratings ? { ratings: entry.ratings } : {}),
  });
}

function inputOf(entry: Exclude<ArenaScriptLine, ArenaHeaderLine>): ArenaInput {
  switch (entry.type) {
    case 'proposal':
    case 'critique':
    case 'refinement':
    case 'vote':
      return { kind: entry.type, agent: entry.agent, output: entry.output } as ArenaInput;
    case 'revision':
      return { kind: 'revision', agent: entry.agent, round: entry.round, output: entry.output };
    case 'similarity':
      return { kind: 'similarity', round: entry.round, output: entry.output };
    case 'trickster':
      return { kind: 'trickster', output: entry.output };
    case 'judge':
      return { kind: 'judge', output: entry.output };
  }
}

/** A line as the arena would name its ask: "ben's revision (round 4)". */
function said(input: ArenaInput): string {
  if (input.kind === 'stop') return 'a stop';
  if (input.kind === 'vote') return `${input.agent}'s vote`;
  return describeAsk(input as ArenaAsk);
}
