import { describe, expect, it } from 'vitest';
import {
  changedFiles,
  decisionWords,
  researcherWords,
  voteWords,
  workspaceWords,
} from '../../renderer/src/views/council/outcome-words';

// A finished council task's outcome in words: what was decided, by how many of the three, who
// decided, and what it changed in the workspace.

const base = {
  decision: 'approved' as const,
  decidedBy: 'consensus' as const,
  votes: { executor: 'approve', verifier: 'approve_with_concerns', integrator: 'reject' } as const,
  ladder: 1,
  stakes: 'medium' as const,
  status: 'RECORDED' as const,
  researcherNote: null,
  reverted: null,
  results: [
    {
      action: 0,
      ok: true,
      detail: '',
      changes: [
        { path: 'ideas/a/README.md', change: 'read' as const },
        { path: 'ideas/a/README.md', change: 'modified' as const },
      ],
    },
    { action: 1, ok: true, detail: '', changes: [{ path: 'ideas/a/notes/n.md', change: 'created' as const }] },
  ],
};

describe('a council outcome in words', () => {
  it('counts the approvals of the three agents, concerns included', () => {
    expect(voteWords(base.votes)).toBe('2 of the three agents approved its last version (1 with concerns)');
    expect(voteWords({ executor: 'approve', verifier: 'reject' })).toBe(
      '1 of the 2 agents who voted (of three) approved its last version',
    );
  });

  it('says who decided, and whether the researcher approved', () => {
    expect(decisionWords(base)).toBe('Approved by the agents, after discussion');
    expect(decisionWords({ ...base, decision: 'rejected', decidedBy: 'tiebreak' })).toBe(
      'Rejected by the weight-based tiebreak',
    );
    expect(decisionWords({ ...base, decidedBy: 'researcher' })).toBe('Approved by you');
    expect(researcherWords({ ...base, decidedBy: 'researcher', researcherNote: 'fine' })).toBe(
      'You approved it: “fine”.',
    );
    expect(researcherWords(base)).toBe(
      'You were not asked: at medium stakes the agents’ decision stands unless you revert it.',
    );
  });

  it('lists the files written (not those read), and says when they were reverted', () => {
    expect(changedFiles(base).map((c) => `${c.change} ${c.path}`)).toEqual([
      'modified ideas/a/README.md',
      'created ideas/a/notes/n.md',
    ]);
    expect(workspaceWords(base)).toBe('2 files changed in the workspace:');
    expect(
      workspaceWords({
        ...base,
        reverted: {
          at: '2026-01-01T00:00:00Z',
          changes: [{ path: 'ideas/a/README.md', change: 'modified' }],
          conflicts: [],
        },
      }),
    ).toBe('Reverted: 1 file change undone; the workspace is as it was.');
    expect(workspaceWords({ ...base, decision: 'rejected', results: [] })).toBe(
      'Nothing in the workspace changed: it was not carried out.',
    );
  });
});
