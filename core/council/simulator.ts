import { slugify } from '../idea/slug';
import { protocolSimulator } from '../sim/registry';
import type { CouncilAction } from './actions';
import type { ProposalOutput } from './answers';
import type { CouncilBrief, NextProposal } from './briefs';

/**
 * The council played offline, deterministically, for demos and first runs without a key. What it
 * does depends on the task and the seed, so that a few runs show every path:
 *   - a task that says "archive" proposes archiving the idea: high stakes, a case for the researcher;
 *   - otherwise the executor writes a note in the idea's notes/ (or lists the ideas when there is no
 *     idea), and the verifier, by seed: approves with a concern (seed % 3 = 0), rejects the first
 *     version and approves the revision (seed % 3 = 2), or rejects every version of the executor's,
 *     so the integrator's compromise settles it (seed % 3 = 1);
 *   - a proposal cites the first episode its brief's memory carries, when there is one.
 */

type Brief<K extends CouncilBrief['kind']> = CouncilBrief & { kind: K };

function noteOf(brief: CouncilBrief): { path: string; content: string } {
  const name = slugify(brief.task).slice(0, 40).replace(/-+$/, '') || 'task';
  return {
    path: `ideas/${brief.idea}/notes/council-${name}.md`,
    content: `# ${brief.task}\n\nWritten by the council (simulated) for this task; nothing else in the idea changed.\n`,
  };
}

function firstProposal(brief: CouncilBrief): ProposalOutput {
  if (!brief.idea)
    return {
      goal: 'List the ideas the task could be about',
      actions: [{ tool: 'list_ideas', args: {} }],
      valueJustification: {
        exploration: {
          text: 'Seeing every idea first shows which ones the task concerns before anything is changed',
          strength: 0.7,
        },
      },
      expectedOutcomes: ['The list of ideas is read'],
      risks: [],
    };
  if (/\barchiv/i.test(brief.task)) {
    const action: CouncilAction = { tool: 'archive_idea', args: { idea: brief.idea } };
    return {
      goal: `Archive ideas/${brief.idea}`,
      actions: [action],
      valueJustification: {
        coherence: {
          text: 'An idea nobody works on any more should say so in its stage, not look active',
          strength: 0.6,
        },
      },
      expectedOutcomes: [`ideas/${brief.idea} is at stage ARCHIVE`],
      risks: [
        {
          risk: 'The researcher may still want it active',
          mitigation: 'Archiving deletes nothing and can be reverted',
          severity: 'medium',
        },
      ],
    };
  }
  const note = noteOf(brief);
  return {
    goal: `Write the task down as a note of ideas/${brief.idea}`,
    actions: [{ tool: 'write_note', args: note }],
    valueJustification: {
      transparency: {
        text: 'The task and what the council did about it stay readable beside the idea itself',
        strength: 0.7,
      },
      efficiency: {
        text: 'One new file answers the task without touching any file the researcher wrote',
        strength: 0.5,
      },
    },
    expectedOutcomes: [`${note.path} exists`, `No other file of ideas/${brief.idea} changes`],
    risks: [
      {
        risk: 'The note could be mistaken for the researcher’s own',
        mitigation: 'It says the council wrote it',
        severity: 'low',
      },
    ],
  };
}

/** Seed modulo 3: 0 agrees at once, 1 needs the compromise, 2 needs one revision. */
const temper = (seed: number) => seed % 3;

export const councilSimulator = protocolSimulator<CouncilBrief>('council', {
  proposal(_seed, brief: Brief<'proposal'>): NextProposal {
    if (brief.proposals > 0) return { done: true, summary: 'The task is done.', proposal: null };
    // It builds on the most relevant episode its memory offers (cited by key: a figure, memory use).
    const cited = brief.memory.flatMap((line) => /^\[([^\]\s]+)\]/.exec(line)?.[1] ?? []).slice(0, 1);
    const proposal = firstProposal(brief);
    return {
      done: false,
      summary: 'One proposal does the task.',
      proposal: cited.length > 0 ? { ...proposal, citesEpisodes: cited } : proposal,
    };
  },
  review(seed, brief: Brief<'review'>) {
    const v = brief.version;
    const rejects =
      brief.agent === 'verifier' &&
      v?.kind !== 'compromise' &&
      v?.stakes !== 'low' &&
      (temper(seed) === 1 || (temper(seed) === 2 && v?.n === 1));
    if (rejects)
      return {
        decision: 'reject',
        rationale: 'The note does not say where its content comes from, so it could be read as a new decision.',
        concerns: ['Name the source of every line'],
        values: { truth: 0.8, safety: 0.5 },
      };
    if (brief.agent === 'verifier')
      return {
        decision: 'approve_with_concerns',
        rationale: 'Nothing is overwritten and the change is declared.',
        concerns: ['Keep the note short'],
        values: { safety: 0.6, truth: 0.6 },
      };
    return {
      decision: 'approve',
      rationale: 'Coherent with the idea as it stands.',
      concerns: [],
      values: { coherence: 0.6 },
    };
  },
  revision(_seed, brief: Brief<'revision'>): ProposalOutput {
    const v = brief.version?.output as ProposalOutput;
    return {
      ...v,
      goal: `${v.goal.replace(/ \(revised.*\)$/, '')} (revised ${brief.version?.n ?? 1})`,
      risks: [
        ...v.risks,
        { risk: 'A line could be read as a new decision', mitigation: 'The note names its source', severity: 'low' },
      ],
    };
  },
  compromise(_seed, brief: Brief<'compromise'>): ProposalOutput {
    const v = brief.version?.output as ProposalOutput;
    return {
      ...v,
      goal: `Middle way: ${v.goal.replace(/ \(revised.*\)$/, '')}, saying where it comes from`,
      valueJustification: {
        coherence: {
          text: 'The note keeps the executor’s aim and meets the verifier’s concern about sources',
          strength: 0.7,
        },
        cooperation: {
          text: 'Both positions are kept: the note is written, and it names where each line comes from',
          strength: 0.6,
        },
      },
    };
  },
  outcome(_seed, brief: Brief<'outcome'>) {
    const ok = brief.results.every((r) => r.ok) && brief.postconditions.every((c) => c.holds);
    return { confirmed: ok, notes: ok ? 'Every expected outcome holds.' : 'Some expected outcome does not hold.' };
  },
  episode(_seed, brief: Brief<'episode'>) {
    return {
      keyLearnings: [`For "${brief.task}", a single declared change was enough.`],
      valuesServed: ['transparency'],
      weightAdjustments: [],
    };
  },
});
