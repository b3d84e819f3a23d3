import type { AnswerCheck } from '../../ports/llm';
import type { AnalysisOutput } from '../analysis';
import type { AgentProfile, CruxState, ThreadState } from '../state';
import type { AgentMove } from './answer';
import { linkInSubject, linksIn } from './idea-links';
import type { DebateSubject } from './subject';

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
    // A live steelman is structured (seed 000): the claim, its strongest reason and the falsifier,
    // each restated; a grade short of ACCURATE says what was missed. A script may leave them out.
    const m = move.meta;
    if (move.move === 'STEELMAN' && (!m.claimRepresented?.trim() || !m.strongestReason?.trim() || !m.falsifierRepresented))
      return {
        ok: false,
        problems: [
          'a STEELMAN restates three things: meta.claimRepresented, meta.strongestReason and meta.falsifierRepresented {metric, threshold, deadline}',
        ],
      };
    if (move.move === 'GRADE_STEELMAN' && m.steelmanGrade && m.steelmanGrade !== 'ACCURATE' && !m.corrections?.trim())
      return { ok: false, problems: [`a ${m.steelmanGrade} grade says what was missed: meta.corrections`] };
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

/** Fewer words than this is not a reason ("I concede.", "Updated."). */
const REASON_MIN_WORDS = 5;
/** What a link that is not in the idea is replaced with once it has been put back to the model once. */
export const REMOVED_LINK = '[unverified; link removed: not in the idea]';

/**
 * What a debater's answer is held to before its schema, on this turn (see `LlmRequest.prepare`):
 *
 * - Links only from the idea. A model has no documents beyond the idea, so an address that is not in
 *   it was made up, and so, most likely, was the study or figure it was attached to. The first such
 *   answer is put back with the problem, so the model can say the same thing honestly (as
 *   GENERAL_KNOWLEDGE or ESTIMATE, the figure labelled unverified). If the answer after that still
 *   carries one, the link is removed and marked unverified, the evidence re-sourced as
 *   GENERAL_KNOWLEDGE, and the answer kept: a link never costs an agent its turn.
 * - A position change or a concession names the message that moved it and says why: UPDATE_POSITION
 *   (unless it only holds the side and confidence it had) and CONCEDE need `replyTo`, an accepted
 *   message of another agent in this thread, and a content of a sentence or more. Otherwise the
 *   answer is put back with the ids it could name.
 *
 * The returned function remembers what it has already put back, so make one per call.
 */
export function prepareMove(
  state: CruxState,
  thread: ThreadState,
  agent: string,
  subject: DebateSubject,
): (input: unknown) => AnswerCheck<unknown> {
  let linksPutBack = false;
  return (input) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return { ok: true, value: input };
    const repairs: string[] = [];
    const problems: string[] = [];
    let answer = input as Record<string, unknown>;

    const invented = inventedLinks(answer, subject);
    if (invented.length > 0 && !linksPutBack) {
      linksPutBack = true;
      for (const { field, link } of invented) {
        problems.push(
          `${field}: the link ${link} is not in the idea's text. You have no documents beyond the idea: leave the link out, ` +
            'give the source as GENERAL_KNOWLEDGE or ESTIMATE, and label any figure the idea does not give "unverified"',
        );
      }
    } else if (invented.length > 0) answer = withoutLinks(answer, invented, repairs);

    let replyTo = typeof answer.replyTo === 'string' ? answer.replyTo : undefined;
    const id = replyTo === undefined ? null : messageIdOf(replyTo);
    if (id !== null && id !== replyTo && state.transcript.some((m) => m.id === id)) {
      repairs.push(`replyTo: "${replyTo}" read as ${id}`);
      replyTo = id;
      answer = { ...answer, replyTo };
    }
    if (movesAPosition(answer, thread, agent)) {
      const what = answer.move === 'CONCEDE' ? 'A CONCEDE' : 'An UPDATE_POSITION that changes your side or confidence';
      const problem = replyProblem(state, thread, agent, what, replyTo);
      if (problem) problems.push(problem);
      const content = typeof answer.content === 'string' ? answer.content : '';
      if (content.trim().split(/\s+/).filter(Boolean).length < REASON_MIN_WORDS) {
        problems.push(`content: ${what} says what in the message you answer moved you, and why, in a sentence or two`);
      }
    }
    return problems.length > 0 ? { ok: false, problems } : { ok: true, value: answer, repairs };
  };
}

/** A change of side or confidence, or a concession: the moves that must say what moved the agent. */
function movesAPosition(answer: Record<string, unknown>, thread: ThreadState, agent: string): boolean {
  if (answer.move === 'CONCEDE') return true;
  if (answer.move !== 'UPDATE_POSITION') return false;
  const meta = (answer.meta ?? {}) as Record<string, unknown>;
  const sameSide = meta.newPosition !== undefined && meta.newPosition === meta.priorPosition;
  const confidence = meta.confidence;
  const sameConfidence = confidence === undefined || confidence === thread.stances[agent]?.confidence;
  // Holding one's side and confidence ("nothing more can be settled before the data exists") moves
  // nothing, so it answers no message in particular.
  return !(sameSide && sameConfidence);
}

/** Why `replyTo` cannot be the message that moved `agent`, or null when it can. */
function replyProblem(
  state: CruxState,
  thread: ThreadState,
  agent: string,
  what: string,
  replyTo: string | undefined,
): string | null {
  const others = state.transcript.filter(
    (m) => m.thread === thread.id && m.accepted && m.author !== null && m.author !== agent,
  );
  const some = others
    .slice(-4)
    .map((m) => m.id)
    .join(', ');
  const which = some === '' ? '' : ` (the latest: ${some})`;
  if (replyTo === undefined) {
    return `replyTo: ${what} names the message that moved you: give replyTo, the id of a message by another agent in this thread${which}`;
  }
  const entry = state.transcript.find((m) => m.id === replyTo);
  if (!entry?.accepted || entry.thread !== thread.id) {
    return `replyTo: "${replyTo}" is not a message of this thread; name the message by another agent that moved you${which}`;
  }
  if (entry.author === null) {
    return `replyTo: ${replyTo} is a moderator line; name the message by another agent that moved you${which}`;
  }
  if (entry.author === agent) {
    return `replyTo: ${replyTo} is your own message; name the message by another agent that moved you${which}`;
  }
  return null;
}

type InventedLink = { field: string; link: string };

/** The links of an answer's content and meta text that the idea does not hold. */
function inventedLinks(answer: Record<string, unknown>, subject: DebateSubject): InventedLink[] {
  const out: InventedLink[] = [];
  const look = (field: string, value: unknown) => {
    if (typeof value !== 'string') return;
    for (const link of linksIn(value)) if (!linkInSubject(link, subject)) out.push({ field, link });
  };
  look('content', answer.content);
  const meta = answer.meta;
  if (meta !== null && typeof meta === 'object' && !Array.isArray(meta)) {
    for (const [key, value] of Object.entries(meta)) {
      if (key === 'evidenceLink' && typeof value === 'string' && linksIn(value).length === 0) {
        // A link without a scheme ("example.org/study") is a link all the same.
        if (!linkInSubject(value, subject)) out.push({ field: 'meta.evidenceLink', link: value });
        continue;
      }
      look(`meta.${key}`, value);
    }
  }
  return out;
}

/** The answer with its invented links taken out and what they backed marked unverified. */
function withoutLinks(
  answer: Record<string, unknown>,
  invented: readonly InventedLink[],
  repairs: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...answer };
  const meta: Record<string, unknown> = { ...((answer.meta ?? {}) as Record<string, unknown>) };
  for (const { field, link } of invented) {
    if (field === 'meta.evidenceLink') {
      delete meta.evidenceLink;
      repairs.push(`meta.evidenceLink: ${link} is not in the idea; dropped`);
      continue;
    }
    const key = field.replace(/^meta\./, '');
    const holder = field.startsWith('meta.') ? meta : out;
    const text = holder[key];
    if (typeof text !== 'string') continue;
    holder[key] = text.split(link).join(REMOVED_LINK);
    repairs.push(`${field}: ${link} is not in the idea; removed and marked unverified`);
  }
  if (out.move === 'PROVIDE_EVIDENCE') {
    const source = meta.evidenceSource;
    // What an invented link backed is at best what the model knows; a quote of the idea still stands.
    const quoted = source === 'IDEA_TEXT' && typeof meta.evidenceQuote === 'string' && meta.evidenceQuote.trim() !== '';
    if (source !== 'ESTIMATE' && source !== 'GENERAL_KNOWLEDGE' && !quoted) {
      meta.evidenceSource = 'GENERAL_KNOWLEDGE';
      repairs.push(`meta.evidenceSource: ${source === undefined ? 'none' : String(source)} set to GENERAL_KNOWLEDGE`);
    }
  }
  out.meta = meta;
  return out;
}

/**
 * Output tokens for a crystallization: a position (statement, falsifier) and a counterfactual for
 * every agent, on top of the question and the criteria. A fixed cap cut a twelve-agent analysis off.
 */
export function analysisOutputTokens(agents: number): number {
  return Math.max(1500, 800 + 250 * agents);
}
