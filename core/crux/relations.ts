import type { StepContext } from './context';
import { closeThread, emit } from './context';
import { updatePrimary } from './crystallize';
import { CruxInputError } from './errors';
import type { CruxInput } from './inputs';
import type { CruxRelation } from './record-schemas';
import type { CruxState, ThreadState } from './state';

// Cross-thread analysis (seed 000, level 2). Every pair of crystallized cruxes of a debate is looked
// at once: a first call says what the later crux is to the earlier one (the same question, or a
// dependency) with a confidence and a short sketch of its reasoning; a relation sure enough and
// argued enough goes to a second call, and only what the second call confirms counts. A confirmed
// duplicate merges the later thread into the earlier one (status MERGED): the merged crux leaves the
// irreducible cruxes, the primary dispute and the coalitions, and stays on its thread for reading.
// The state machine only asks (`relate` and `check_relation` effects); the answers come back as
// inputs, from a script's crux_relation lines or from the calls of a live debate.

/** The first call must be at least this sure, or the relation is dismissed without a second call. */
export const RELATION_MIN_CONFIDENCE = 0.8;
/** …and argue it in at least this many characters (the seed's "formal logic sketch"). */
export const RELATION_MIN_SKETCH = 20;

const pairOf = (r: Pick<CruxRelation, 'a' | 'b'>, a: string, b: string) => r.a === a && r.b === b;

/** Pairs of crystallized cruxes, earlier one first, that no call has looked at yet. */
export function unrelatedPairs(state: Pick<CruxState, 'crystallized' | 'relations'>): { a: string; b: string }[] {
  const out: { a: string; b: string }[] = [];
  state.crystallized.forEach((b, j) => {
    for (const a of state.crystallized.slice(0, j)) {
      if (!state.relations.some((r) => pairOf(r, a, b))) out.push({ a, b });
    }
  });
  return out;
}

/** Proposed relations whose second call is still due (both cruxes still crystallized, none merged). */
export function pendingChecks(state: Pick<CruxState, 'crystallized' | 'relations'>): CruxRelation[] {
  return state.relations.filter(
    (r) => r.status === 'PROPOSED' && state.crystallized.includes(r.a) && state.crystallized.includes(r.b),
  );
}

/** After `thread` crystallizes: one `relate` effect for it and each crux crystallized before it. */
export function requestRelations(ctx: StepContext, thread: ThreadState): void {
  for (const a of ctx.state.crystallized) {
    if (a !== thread.id) ctx.effects.push({ kind: 'relate', a, b: thread.id });
  }
}

function requirePair(state: CruxState, a: string, b: string): void {
  for (const id of [a, b]) {
    if (!state.threads.some((t) => t.id === id)) throw new CruxInputError(`unknown thread id "${id}"`);
  }
  if (a === b) throw new CruxInputError(`a relation needs two different cruxes, got "${a}" twice`);
}

/**
 * Why a first call's answer goes no further (no second call), or null when it is put to one. The
 * cross-debate analysis of the global graph (./cross-debate.ts) holds its answers to the same rule.
 */
export function relationDismissal(
  input: Pick<Extract<CruxInput, { kind: 'crux_relation' }>, 'relation' | 'confidence' | 'sketch' | 'note'>,
): string | null {
  if (input.relation === 'NONE') return input.note ?? 'no relation';
  if (!(input.confidence >= RELATION_MIN_CONFIDENCE))
    return `confidence ${input.confidence} is below ${RELATION_MIN_CONFIDENCE}`;
  if (input.sketch.trim().length < RELATION_MIN_SKETCH)
    return `the sketch is shorter than ${RELATION_MIN_SKETCH} characters`;
  return null;
}

/** The first call's answer. A pair no longer both crystallized (one merged meanwhile), or already looked at, changes nothing. */
export function applyRelation(ctx: StepContext, input: Extract<CruxInput, { kind: 'crux_relation' }>): void {
  const { state } = ctx;
  const { a, b } = input;
  requirePair(state, a, b);
  const ia = state.crystallized.indexOf(a);
  const ib = state.crystallized.indexOf(b);
  if (ia < 0 || ib < 0 || state.relations.some((r) => pairOf(r, a, b))) return;
  if (ia > ib) throw new CruxInputError(`"${a}" crystallized after "${b}": a relation names the earlier crux as a`);
  const directed = input.relation === 'ENTAILS' || input.relation === 'SUPPORTS';
  const from = directed ? (input.from ?? a) : a;
  if (from !== a && from !== b) throw new CruxInputError(`the deeper crux "${from}" is neither "${a}" nor "${b}"`);
  const reason = relationDismissal(input);
  const relation: CruxRelation = {
    a,
    b,
    relation: input.relation,
    from,
    to: from === a ? b : a,
    confidence: input.confidence,
    sketch: input.sketch,
    status: reason === null ? 'PROPOSED' : 'DISMISSED',
    note: reason,
  };
  state.relations.push(relation);
  emit(ctx, { type: 'crux_relation_proposed', relation: { ...relation } });
  if (reason === null) ctx.effects.push({ kind: 'check_relation', a, b });
}

/** The second call's answer; a confirmed duplicate merges the later crux into the earlier one. */
export function applyRelationCheck(ctx: StepContext, input: Extract<CruxInput, { kind: 'relation_check' }>): void {
  const { state } = ctx;
  requirePair(state, input.a, input.b);
  const relation = state.relations.find((r) => pairOf(r, input.a, input.b));
  if (relation?.status !== 'PROPOSED')
    throw new CruxInputError(`no relation of "${input.a}" and "${input.b}" waits for a second call`);
  relation.status = input.agrees ? 'CONFIRMED' : 'REJECTED';
  relation.note = input.note;
  emit(ctx, { type: 'crux_relation_checked', relation: { ...relation } });
  if (relation.status === 'CONFIRMED' && relation.relation === 'DUPLICATE') merge(ctx, relation.b, relation.a);
}

function merge(ctx: StepContext, merged: string, into: string): void {
  const { state } = ctx;
  if (!state.crystallized.includes(merged) || !state.crystallized.includes(into)) return;
  const thread = state.threads.find((t) => t.id === merged) as ThreadState;
  state.crystallized = state.crystallized.filter((id) => id !== merged);
  thread.mergedInto = into;
  closeThread(ctx, thread, 'MERGED', `the same question as the crux of ${into}`);
  emit(ctx, { type: 'crux_merged', thread: merged, into });
  updatePrimary(ctx);
}
