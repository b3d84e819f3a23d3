import type { AnswerCheck } from '../../ports/llm';
import type { AnalysisOutput } from '../analysis';
import type { AgentProfile, CruxState } from '../state';
import type { AgentMove } from './answer';

/**
 * What a debate holds an agent's or the crystallizer's answer to beyond its schema: agent ids of this
 * debate. A model often names an agent as it reads in the transcript ("Optimist Engineer" for
 * `optimist-engineer`); when that name points at exactly one agent it is read as that agent's id.
 * A name that points at none is put back to the model with the roster, never fed to the protocol,
 * which would end the run on it.
 */

function canonical(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/** The agent a key or field names: by id, by display name, or "Name (id)"; null when none or several. */
export function agentIdOf(agents: readonly AgentProfile[], text: string): string | null {
  if (agents.some((a) => a.id === text)) return text;
  const inParens = /\(([^()]+)\)\s*$/.exec(text)?.[1];
  if (inParens && agents.some((a) => a.id === inParens.trim())) return inParens.trim();
  const key = canonical(text);
  if (key === '') return null;
  const found = agents.filter((a) => canonical(a.id) === key || canonical(a.name) === key);
  return found.length === 1 ? (found[0] as AgentProfile).id : null;
}

function roster(agents: readonly AgentProfile[]): string {
  return agents.map((a) => `${a.id} (${a.name})`).join(', ');
}

/** A record keyed by agents, its keys read as ids; the problems of keys that name no one or the same one twice. */
function rekey<V>(
  agents: readonly AgentProfile[],
  record: Record<string, V>,
  field: string,
  repairs: string[],
  problems: string[],
): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [key, value] of Object.entries(record)) {
    const id = agentIdOf(agents, key);
    if (id === null) {
      problems.push(`${field}: "${key}" is not an agent of this debate; key it by one of the ids: ${roster(agents)}`);
      continue;
    }
    if (id in out) {
      problems.push(`${field}: "${key}" and another key both name ${id}; give one entry per agent`);
      continue;
    }
    if (id !== key) repairs.push(`${field}: "${key}" read as ${id}`);
    out[id] = value;
  }
  return out;
}

/** The crystallizer's answer with its maps keyed by agent ids. */
export function checkAnalysis(state: CruxState): (output: AnalysisOutput) => AnswerCheck<AnalysisOutput> {
  return (output) => {
    const repairs: string[] = [];
    const problems: string[] = [];
    const positions = rekey(state.agents, output.positions, 'positions', repairs, problems);
    const counterfactual = rekey(state.agents, output.counterfactual, 'counterfactual', repairs, problems);
    if (problems.length > 0) return { ok: false, problems };
    return { ok: true, value: { ...output, positions, counterfactual }, repairs };
  };
}

/**
 * The crystallizer's raw answer with its agent-keyed maps read as ids, before the schema of this debate
 * (which wants exactly the ids) sees it; a key that names no one is put back with the roster.
 */
export function prepareAnalysis(state: CruxState): (input: unknown) => AnswerCheck<unknown> {
  return (input) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return { ok: true, value: input };
    const repairs: string[] = [];
    const problems: string[] = [];
    const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const field of ['positions', 'counterfactual'] as const) {
      const record = out[field];
      if (record === null || typeof record !== 'object' || Array.isArray(record)) continue;
      out[field] = rekey(state.agents, record as Record<string, unknown>, field, repairs, problems);
    }
    return problems.length > 0 ? { ok: false, problems } : { ok: true, value: out, repairs };
  };
}

/** A message id as the transcript writes it (`m12`), from `M12`, `12` or `[m12]`. */
function messageIdOf(text: string): string | null {
  const n = /^\s*\[?\s*m?\s*(\d+)\s*\]?\s*$/i.exec(text)?.[1];
  return n === undefined ? null : `m${Number(n)}`;
}

/**
 * A move with the agents it names read as ids and its `replyTo` written as a message id. What still
 * names no agent is left for the protocol, which refuses the move with a reason and asks again.
 */
export function checkMove(state: CruxState): (move: AgentMove) => AnswerCheck<AgentMove> {
  return (move) => {
    const repairs: string[] = [];
    const meta = { ...move.meta };
    for (const field of ['steelmanTarget', 'targetFalsifierOf'] as const) {
      const given = meta[field];
      if (given === undefined) continue;
      const id = agentIdOf(state.agents, given);
      if (id !== null && id !== given) {
        meta[field] = id;
        repairs.push(`meta.${field}: "${given}" read as ${id}`);
      }
    }
    let replyTo = move.replyTo;
    if (replyTo !== undefined) {
      const id = messageIdOf(replyTo);
      if (id !== null && id !== replyTo && state.transcript.some((m) => m.id === id)) {
        repairs.push(`replyTo: "${replyTo}" read as ${id}`);
        replyTo = id;
      }
    }
    return { ok: true, value: { ...move, meta, ...(replyTo !== undefined ? { replyTo } : {}) }, repairs };
  };
}

/**
 * Output tokens for a crystallization: a position (statement, falsifier) and a counterfactual for
 * every agent, on top of the question and the criteria. A fixed cap cut a twelve-agent analysis off.
 */
export function analysisOutputTokens(agents: number): number {
  return Math.max(1500, 800 + 250 * agents);
}
