import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config';
import { createState, newThread } from '../state';
import { INTERVENTION_KINDS, MOVES, MOVES_BY_STAGE, type Move, STAGES } from '../vocabulary';
import { intervene } from '../moderator';
import { agendaOf } from '../agenda';
import { simulateMove } from '../simulator';
import { agentTurnRequest } from './brief';
import type { Ask } from './scheduler';

// A live agent reads the moderator's lines and its own ask as instructions: none may ask for a move
// the thread's stage refuses.

/** The moves a text asks for: named outright, or in words ("propose it as the crux", "time to commit"). */
function movesAskedIn(text: string): Move[] {
  const named = MOVES.filter((m) => new RegExp(`\\b${m}\\b`).test(text));
  const said: Move[] = [];
  if (/\bpropose\b[^.]*\bcrux\b/i.test(text)) said.push('PROPOSE_CRUX');
  if (/\bcommit\b/i.test(text) && !/UPDATE_POSITION/.test(text)) said.push('COMMIT_POSITION');
  return [...new Set([...named, ...said])];
}

const ASKS: Record<(typeof STAGES)[number], Ask[]> = {
  DISCOVERY: [{ kind: 'DISCUSS' }, { kind: 'PROPOSE_CRUX' }],
  CRUX_LOCK: [
    { kind: 'COMMIT_POSITION' },
    { kind: 'DECLARE_FALSIFIER' },
    { kind: 'STEELMAN', target: 'b' },
    { kind: 'GRADE_STEELMAN', from: 'b', attempts: 1 },
    { kind: 'CLARIFY' },
  ],
  EVIDENCE: [
    { kind: 'PROVIDE_EVIDENCE', targetFalsifierOf: 'b' },
    { kind: 'CHALLENGE_EVIDENCE', replyTo: 'm1', author: 'b' },
  ],
};

/** Where the protocol issues each intervention (CRUX-PROTOCOL.md, "After each accepted message"). */
const ISSUED: Record<(typeof INTERVENTION_KINDS)[number], readonly (typeof STAGES)[number][]> = {
  BINARY_FRAMING: ['DISCOVERY', 'CRUX_LOCK'],
  HORIZON_ALIGNMENT: ['CRUX_LOCK'],
  COMMIT_REQUEST: ['CRUX_LOCK', 'EVIDENCE'],
  STEELMAN_REQUEST: ['CRUX_LOCK'],
  FALSIFIER_REQUEST: ['CRUX_LOCK'],
};

describe("the moderator's lines and the asks of each stage", () => {
  it('never ask for a move the stage refuses', () => {
    const wrong: string[] = [];
    for (const stage of STAGES) {
      const state = createState({
        topic: 'Solar co-op',
        agents: [
          { id: 'a', name: 'Alice' },
          { id: 'b', name: 'Bob' },
        ],
        config: resolveConfig({}),
      });
      const thread = newThread('t1', 'Solar co-op', 'Will the co-op sign 10 roofs by 2027?', state.config, 'script');
      thread.status = stage;
      state.threads.push(thread);
      thread.falsifiers.b = { metric: 'roofs signed', threshold: 'fewer than 10', deadline: '2027-12-31' };
      // The protocol's own words for each intervention it issues in this stage, as a replay writes them.
      const ctx = { state, events: [], effects: [] };
      for (const kind of INTERVENTION_KINDS.filter((k) => ISSUED[k].includes(stage))) intervene(ctx, thread, kind, 'a');
      for (const ask of ASKS[stage]) {
        const request = agentTurnRequest(
          state,
          thread,
          { thread: 't1', agent: 'a', ask, attempt: 0 },
          { systemPrompt: 'You are Alice.', tier: 'fast' },
          {
            subject: { kind: 'topic', text: 'Solar co-op' },
            today: '2026-03-01',
          },
        );
        const lines = request.messages
          .map((m) => m.content)
          .filter((c) => c.includes('moderator') || c.includes('What is needed'));
        for (const line of lines) {
          const text = line.includes('What is needed') ? line.slice(line.indexOf('What is needed')) : line;
          for (const move of movesAskedIn(text))
            if (!MOVES_BY_STAGE[stage].includes(move)) wrong.push(`${stage}: ${move} in "${text}"`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the agenda in a turn', () => {
  it('puts the open question the agenda picked before an agent of a thread without one, and the simulator takes it up', () => {
    const state = createState({
      topic: 'Solar co-op',
      agents: [
        { id: 'a', name: 'Alice' },
        { id: 'b', name: 'Bob' },
      ],
      config: resolveConfig({}),
    });
    const t1 = newThread('t1', 'Payback', 'Will the co-op pay back within 8 years?', state.config, 'script');
    t1.status = 'EVIDENCE';
    t1.stances = { a: { side: 'YES' }, b: { side: 'NO' } };
    t1.candidateCruxes = [{ by: 'b', question: 'Will member loans cover 30% of the cost by 2027?', messageId: 'm9' }];
    const t2 = newThread('t2', 'Financing', null, state.config, 'script');
    state.threads.push(t1, t2);
    state.agenda = agendaOf(state);
    const request = agentTurnRequest(
      state,
      t2,
      { thread: 't2', agent: 'a', ask: { kind: 'PROPOSE_CRUX' }, attempt: 0 },
      { systemPrompt: 'You are Alice.', tier: 'fast' },
      { subject: { kind: 'topic', text: 'Solar co-op' }, today: '2026-03-01' },
    );
    const words = request.messages[request.messages.length - 1]?.content ?? '';
    const move = simulateMove(1, request.brief as Parameters<typeof simulateMove>[1]);
    expect({
      agenda: words.match(/Agenda: [^\n]*/)?.[0],
      ask: words.includes('The agenda puts "Will member loans cover 30% of the cost by 2027?" forward'),
      proposed: move.meta.question?.replace(/\?$/, ''),
    }).toEqual({
      agenda:
        'Agenda: the open question this thread should take up next is "Will member loans cover 30% of the cost by 2027?" (a deeper crux b put forward in t1 (m9); 2 agents hold a side there).',
      ask: true,
      proposed: 'Will member loans cover 30% of the cost by 2027',
    });
  });
});
