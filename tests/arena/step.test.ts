import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgedAgreementsProblems, revisionEditsProblems } from '../../core/arena/checks';
import { agreementPairs, judgedAgreements } from '../../core/arena/judged-agreements';
import { ArenaInputError } from '../../core/arena/errors';
import { applyRevisionEdits } from '../../core/arena/revision-edits';
import { replayArena } from '../../core/arena/replay';
import { type ArenaState, createArena, currentProposal } from '../../core/arena/state';
import { arenaAsks, arenaDone, step } from '../../core/arena/step';

const script = readFileSync(join(import.meta.dirname, 'scripts/hollow-trickster.jsonl'), 'utf8');
const run = replayArena(script);
const initial = (): ArenaState =>
  createArena({ topic: run.state.topic, agents: run.state.agents, judge: 'jo', config: run.state.config });

describe('the arena state machine', () => {
  it('asks for every stage in order, and an answer counts only once its stage is complete', () => {
    let state = initial();
    const seen: string[] = [];
    for (const input of run.inputs) {
      const asks = arenaAsks(state);
      seen.push(asks.map((a) => ('agent' in a ? `${a.kind}:${a.agent}` : a.kind)).join(' '));
      state = step(state, input).state;
    }
    const afterOne = step(initial(), run.inputs[0] as (typeof run.inputs)[0]).state;
    expect({
      firstRound: seen.slice(0, 3),
      stages: [...new Set(seen.map((s) => s.split(':')[0]))],
      afterOne: { proposals: afterOne.proposals, waiting: Object.keys(afterOne.buffer), calls: afterOne.calls },
      final: state,
    }).toEqual({
      firstRound: ['proposal:ana proposal:ben proposal:cy', 'proposal:ben proposal:cy', 'proposal:cy'],
      stages: ['proposal', 'critique', 'revision', 'vote', 'trickster', 'judge'],
      afterOne: { proposals: {}, waiting: ['ana'], calls: 1 },
      final: run.state,
    });
  });

  it('never changes the state it is given', () => {
    let state = initial();
    const changed: number[] = [];
    run.inputs.forEach((input, i) => {
      const before = JSON.stringify(state);
      const next = step(state, input).state;
      if (JSON.stringify(state) !== before) changed.push(i);
      state = next;
    });
    expect(changed).toEqual([]);
  });

  it('stops with a status, and takes nothing after an end', () => {
    const stopped = step(initial(), { kind: 'stop', status: 'partial', reason: 'spent the budget' });
    const refused = (state: ArenaState) => {
      try {
        step(state, run.inputs[0] as (typeof run.inputs)[0]);
        return 'taken';
      } catch (e) {
        return e instanceof ArenaInputError ? e.message : 'other';
      }
    };
    expect({
      stopped: stopped.state.stopped,
      done: arenaDone(stopped.state),
      asks: arenaAsks(stopped.state),
      afterStop: refused(stopped.state),
      afterEnd: refused(run.state),
    }).toEqual({
      stopped: { status: 'partial', reason: 'spent the budget' },
      done: true,
      asks: [],
      afterStop: 'the arena has stopped (spent the budget)',
      afterEnd: 'the arena is over (CONSENSUS)',
    });
  });

  it('goes on without an agent that leaves, and fails when fewer than two would be left', () => {
    // ana and ben have critiqued; cy leaves instead of critiquing: the stage closes without it.
    let state = initial();
    const critiques = run.inputs.findIndex((i) => i.kind === 'critique');
    for (const input of run.inputs.slice(0, critiques + 2)) state = step(state, input).state;
    const refused = (input: Parameters<typeof step>[1]) => {
      try {
        step(state, input);
        return 'taken';
      } catch (e) {
        return e instanceof ArenaInputError ? e.message : 'other';
      }
    };
    const notDue = refused({ kind: 'withdraw', agent: 'ana', reason: 'r' });
    const left = step(state, { kind: 'withdraw', agent: 'cy', reason: "cy's critique failed" }).state;
    expect({
      notDue,
      stage: left.stage,
      critics: [...new Set(left.critiques.map((c) => c.author))],
      asks: arenaAsks(left).map((a) => ('agent' in a ? `${a.kind}:${a.agent}` : a.kind)),
      anaLeft: step(left, { kind: 'withdraw', agent: 'ana', reason: "ana's revision failed" }).state.stopped,
    }).toEqual({
      notDue: 'not asked for: ana has no answer due, so it cannot leave now',
      stage: { kind: 'revision', round: 3 },
      critics: ['ana', 'ben'],
      asks: ['revision:ana', 'revision:ben'],
      anaLeft: {
        status: 'failed',
        reason: "ana's revision failed; ana left the arena and one agent is left",
      },
    });
  });

  it('answers critiques by id in a live revision, and names a slip by the field the model wrote', () => {
    // After the critiques: cy's proposal has c2-ana-2 and c2-ben-2 against it; c2-ben-1 is of ana's.
    let state = initial();
    const revisions = run.inputs.findIndex((i) => i.kind === 'revision');
    for (const input of run.inputs.slice(0, revisions)) state = step(state, input).state;
    const edits = (answered: Record<string, string>, adopted = 'ana') => ({
      bodyEdits: [],
      claims: [],
      confidence: 0.8,
      answered,
      changes: [{ what: 'took up a control group', adopted }],
    });
    const sound = edits({ 'c2-ben-2': 'a control group', 'c2-ana-2': 'the evidence for c2' });
    const applied = applyRevisionEdits(
      currentProposal(state, 'cy') as NonNullable<ReturnType<typeof currentProposal>>,
      sound,
    );
    expect({
      sound: revisionEditsProblems(state, 'cy', sound),
      logged: applied.ok ? { changes: applied.value.changes, addressed: applied.value.addressed } : applied.problems,
      slips: revisionEditsProblems(state, 'cy', edits({ 'c2-ben-9': 'x', 'c2-ben-1': 'y', 'c2-ben-2': 'z' }, 'cy')),
    }).toEqual({
      sound: [],
      logged: {
        changes: [
          { what: 'a control group', because: { critique: 'c2-ben-2' } },
          { what: 'the evidence for c2', because: { critique: 'c2-ana-2' } },
          { what: 'took up a control group', because: { adopted: 'ana' } },
        ],
        addressed: ['c2-ben-2', 'c2-ana-2'],
      },
      slips: [
        'answered."c2-ben-9": unknown critique id "c2-ben-9"',
        'answered."c2-ben-1": c2-ben-1 is a critique of ana\'s proposal, not yours (a change because of it goes in changes)',
        'changes[0]: adopted from yourself',
      ],
    });
  });

  it('takes the judged agreements keyed by pair names, and names a slip by its key', () => {
    const state = initial();
    const pairs = [
      { a: 'ana', b: 'ben', agreement: 0.4 },
      { a: 'ana', b: 'cy', agreement: 0.7 },
      { a: 'ben', b: 'cy', agreement: 0.55 },
    ];
    const live = judgedAgreements({ pairs });
    expect({
      live,
      logged: agreementPairs(live),
      sound: judgedAgreementsProblems(state, live),
      slips: judgedAgreementsProblems(state, {
        agreements: { 'ana-ben': 0.4, 'ana–cy': 0.7, 'cy–ana': 0.7, 'ana–moe': 0.1, 'ben–ben': 1 },
      }),
    }).toEqual({
      live: { agreements: { 'ana–ben': 0.4, 'ana–cy': 0.7, 'ben–cy': 0.55 } },
      logged: { pairs },
      sound: [],
      slips: [
        'agreements."ana-ben": not a pair\'s name (two agent ids joined by "–", as the ask lists them)',
        'agreements."cy–ana": the pair cy–ana twice',
        'agreements."ana–moe": unknown agent "moe"',
        'agreements."ben–ben": a proposal paired with itself',
        'missing pairs: ana–ben, ben–cy',
      ],
    });
  });
});
