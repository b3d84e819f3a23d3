import { findCoalitions } from './coalitions';
import type { StepContext } from './context';
import { emit } from './context';
import { moderatorMessage } from './moderator';
import type { AgentProfile, CruxState, ThreadState } from './state';
import { isOpen } from './state';

// Keeping a debate honest (seed 000): a devil's advocate when nobody frames a crux, and two stop
// rules for a debate that has stopped finding anything. Both drivers read the same state: the
// machine keeps the marks (when the last new crux appeared, when the coalitions last changed) and
// joins the devil's advocate itself; a driver asks `globalStop` after each input and, when a rule
// holds, feeds the machine a `stop` with its reason (the result is then partial, Confidence: LOW).

/** The devil's advocate's id (another is taken if a debater already has it). */
export const DEVILS_ADVOCATE = 'devils-advocate';

export function isDevilsAdvocate(state: Pick<CruxState, 'agents'>, agent: string): boolean {
  return state.agents.some((a) => a.id === agent && a.role === 'devils-advocate');
}

/**
 * The agents whose positions count: everyone but the devil's advocate, who argues a case it does not
 * hold and so never commits. DCG's coverage, validation and the crux's positions read only these.
 */
export function debaters(agents: readonly AgentProfile[]): AgentProfile[] {
  return agents.filter((a) => a.role !== 'devils-advocate');
}

/** A crux has been proposed: a thread has its binary question, or a deeper crux was put forward. */
function cruxProposed(state: CruxState): boolean {
  return state.threads.some((t) => t.binaryQuestion !== null || t.candidateCruxes.length > 0);
}

/** A new crux appeared (a proposal, a spawned thread, a crystallization): the stagnation rule restarts. */
export function noteNewCrux(state: CruxState): void {
  state.lastNewCruxAt = state.counters.messagesTotal;
}

/** After the cruxes changed (crystallized, reviewed, merged): note whether the coalitions did. */
export function noteCruxChange(state: CruxState): void {
  const cruxes = state.crystallized.flatMap((id) => {
    const crux = state.threads.find((t) => t.id === id)?.crux;
    return crux ? [{ thread: id, crux }] : [];
  });
  const coalitions = findCoalitions(state.agents, cruxes, state.config.coalitions, []);
  const irreducible = cruxes.filter((c) => c.crux.validated).map((c) => c.thread);
  const key = JSON.stringify([coalitions.map((c) => c.members), irreducible]);
  state.coalitionsHold = coalitions.length > 0 && irreducible.length > 0;
  if (key !== state.coalitionsKey) {
    state.coalitionsKey = key;
    state.coalitionsChangedAt = state.counters.messagesTotal;
  }
}

/**
 * After an accepted agent message: a PROPOSE_CRUX is a new crux; and on reaching the configured
 * count with no crux proposed, the devil's advocate joins (once), announced in the thread.
 */
export function afterAcceptedMessage(ctx: StepContext, thread: ThreadState, move: string): void {
  const { state } = ctx;
  if (move === 'PROPOSE_CRUX') noteNewCrux(state);
  const after = state.config.devilsAdvocateAfter;
  if (after === 0 || state.counters.messagesTotal !== after || cruxProposed(state)) return;
  if (state.agents.some((a) => a.role === 'devils-advocate') || !state.threads.some(isOpen)) return;
  let id = DEVILS_ADVOCATE;
  for (let n = 2; state.agents.some((a) => a.id === id); n++) id = `${DEVILS_ADVOCATE}-${n}`;
  state.agents.push({ id, name: "Devil's advocate", role: 'devils-advocate' });
  emit(ctx, { type: 'devils_advocate_joined', agent: id, afterMessages: after, thread: thread.id });
  moderatorMessage(
    ctx,
    thread,
    `No crux has been proposed in the first ${after} messages. A devil's advocate (${id}) joins the discovery: it argues the case nobody here holds and puts a yes/no question to you. It takes no side of its own.`,
  );
}

/** Why the debate should stop now (a rule holds while a thread is still open), or null. */
export function globalStop(state: CruxState): string | null {
  if (state.stoppedBy !== null || !state.threads.some(isOpen)) return null;
  const { noNewCrux, coalitionsStable } = state.config.stopRules;
  const total = state.counters.messagesTotal;
  if (noNewCrux > 0 && total - state.lastNewCruxAt >= noNewCrux)
    return `no new crux in the last ${noNewCrux} messages`;
  if (
    coalitionsStable > 0 &&
    state.coalitionsHold &&
    total - state.coalitionsChangedAt >= coalitionsStable &&
    total - state.lastSpawnAt >= coalitionsStable
  )
    return `coalitions stable for ${coalitionsStable} messages, with no new thread`;
  return null;
}
