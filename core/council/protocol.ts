import type { z } from 'zod';
import type { PlannedCall, Protocol } from '../engine/protocol';
import type { ProtocolEntry } from '../engine/registry';
import { councilRequest, type NextProposal } from './briefs';
import { CouncilInputError } from './errors';
import type { CouncilAsk, CouncilInput } from './inputs';
import { describeNeed, need, step } from './lifecycle';
import { councilResult } from './result';
import { type CouncilHeader, councilHeaderSchema, type CouncilState, initCouncil } from './state';
import { councilSimulator } from './simulator';

/**
 * The council as a tenant of the one engine. Its model calls go through the runner like any
 * protocol's; what is not a model call — running an approved action on the workspace, checking its
 * postconditions, the researcher's decision — comes in through the runner's `control` from the
 * council's host (`core/node/council/council-runs.ts`), which holds the workspace. Run without such
 * a host (the general `run` command), the council deliberates and stops where it needs one.
 */

function planned(ask: CouncilAsk): PlannedCall {
  return { kind: ask.role, thread: 'proposal' in ask ? ask.proposal : 'task', agent: ask.agent };
}

const samePlan = (a: PlannedCall, b: PlannedCall) => a.kind === b.kind && a.thread === b.thread && a.agent === b.agent;

export function councilProtocol(): Protocol<CouncilState, CouncilInput, CouncilAsk> {
  return {
    name: 'council',
    version: 1,
    step,
    isRefusal: (error) => error instanceof CouncilInputError,
    done: (state) => state.phase === 'done',
    asks(state, view) {
      const n = need(state);
      if (n.kind !== 'ask' || view.degraded.has(n.ask.agent)) return { asks: [], resumed: false };
      const plan = planned(n.ask);
      return { asks: [n.ask], resumed: view.pending.some((p) => samePlan(p, plan)) };
    },
    describe: (ask) => ({
      agent: ask.agent,
      meterAgent: ask.agent,
      purpose: `${ask.role}:${'proposal' in ask ? ask.proposal : 'task'}`,
      failedAt: 'proposal' in ask ? ask.proposal : 'task',
      planned: planned(ask),
      degradable: true,
    }),
    degradeAfter: 3,
    request: councilRequest,
    answer(_state, ask, value): CouncilInput {
      switch (ask.role) {
        case 'proposal': {
          const next = value as NextProposal;
          return next.done || !next.proposal
            ? { kind: 'finish', call: true }
            : { kind: 'proposal', output: next.proposal };
        }
        case 'review':
          return { kind: 'review', agent: ask.agent, output: value as never };
        case 'revision':
        case 'compromise':
          return { kind: ask.role, output: value as never };
        case 'outcome':
          return { kind: 'outcome', output: value as never };
        case 'episode':
          return { kind: 'episode', output: value as never };
      }
    },
    failed: () => [],
    stop: (_state, cause) => ({ inputs: [{ kind: 'stop', reason: cause.text }], after: 'partial' }),
    // Reached only when no host answers for the workspace or the researcher.
    stopRule(state) {
      const n = need(state);
      if (n.kind === 'ask' || n.kind === 'done') return null;
      return `the council needs ${describeNeed(n)}; continue it with: npm run cli -- council`;
    },
  };
}

export const councilEntry: ProtocolEntry<CouncilHeader, CouncilState, CouncilInput, CouncilAsk> = {
  name: 'council',
  version: 1,
  setup: councilHeaderSchema as unknown as z.ZodType<CouncilHeader>,
  folder: 'councils',
  // Its host executes actions on the workspace and asks the researcher between steps (the runner's
  // `control`), which a run of the general run service would not: `council run` starts one.
  startedBy: 'council run',
  init: (setup) => initCouncil(councilHeaderSchema.parse(setup)),
  protocol: () => councilProtocol(),
  summary: (state) => ({ ...councilResult(state), need: describeNeed(need(state)) }),
  transcript: (state) =>
    state.proposals.flatMap((p) =>
      p.versions
        .flatMap((v) => [
          {
            author: v.author,
            text: `${p.id} v${v.n} (${v.kind}, ${v.stakes}${v.flags.length ? `, ${v.flags.join(' ')}` : ''}): ${v.output.goal}`,
          },
          ...Object.entries(v.reviews).map(([agent, r]) => ({
            author: agent,
            text: `${p.id} v${v.n}: ${r?.decision} — ${r?.rationale}`,
          })),
        ])
        .concat(
          p.decision && p.decision !== 'awaiting_researcher'
            ? [
                {
                  author: p.decidedBy === 'researcher' ? 'researcher' : 'council',
                  text: `${p.id}: ${p.decision} (${p.decidedBy})${p.researcherNote ? ` — ${p.researcherNote}` : ''}; ${p.status}`,
                },
              ]
            : [],
        ),
    ),
  simulator: councilSimulator,
};
