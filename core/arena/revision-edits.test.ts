import { describe, expect, it } from 'vitest';
import type { ProposalAnswer, RevisionAnswer } from './answers';
import { applyRevisionEdits, numberedBody, paragraphsOf, revisionEdits } from './revision-edits';

const claim = (id: string, text = `claim ${id}`, evidence: { source: string; quote: string }[] = []) => ({
  id,
  text,
  evidence,
});

const current: ProposalAnswer = {
  title: 'Pilot first',
  summary: 'A small pilot.',
  body: 'One.\n\nTwo.\n\nThree.\n\nFour.',
  claims: [claim('k1'), claim('k2'), claim('k3')],
  confidence: 0.6,
};

const revised = (over: Partial<RevisionAnswer>): RevisionAnswer => ({
  ...current,
  confidence: 0.7,
  changes: [{ what: 'w', because: { own: 'o' } }],
  addressed: [],
  ...over,
});

describe('revisions sent as edits', () => {
  it('turns any revision into edits that give it back exactly, sending only what changed', () => {
    const cases: Record<string, RevisionAnswer> = {
      unchanged: revised({}),
      replacedAndInserted: revised({ body: 'One.\n\nTwo, better.\n\nNew.\n\nThree.\n\nFour.' }),
      deletedFirstAndLast: revised({ body: 'Two.\n\nThree.' }),
      insertedFirst: revised({ body: 'Zero.\n\nOne.\n\nTwo.\n\nThree.\n\nFour.' }),
      rewritten: revised({ title: 'Other', summary: 'Else.', body: 'A.\n\nB.\n\nC.\n\nD.\n\nE.\n\nF.' }),
      claims: revised({
        claims: [claim('k1'), claim('k3', 'claim k3', [{ source: 's', quote: 'q' }]), claim('k9')],
      }),
    };
    const edits = Object.fromEntries(Object.entries(cases).map(([k, next]) => [k, revisionEdits(current, next)]));
    const back = Object.fromEntries(
      Object.entries(edits).map(([k, e]) => {
        const applied = applyRevisionEdits(current, e);
        return [k, applied.ok ? applied.value : applied.problems];
      }),
    );
    expect(back).toEqual(cases);
    expect({
      unchanged: edits.unchanged,
      replacedAndInserted: edits.replacedAndInserted?.bodyEdits,
      deletedFirstAndLast: edits.deletedFirstAndLast?.bodyEdits,
      insertedFirst: edits.insertedFirst?.bodyEdits,
      claims: [edits.claims?.claims.map((c) => c.id), edits.claims?.dropClaims],
    }).toEqual({
      unchanged: {
        bodyEdits: [],
        claims: [],
        confidence: 0.7,
        changes: [{ what: 'w', because: { own: 'o' } }],
        addressed: [],
      },
      replacedAndInserted: [
        { op: 'replace', at: 2, paragraph: 'Two, better.' },
        { op: 'insertAfter', at: 2, paragraph: 'New.' },
      ],
      deletedFirstAndLast: [
        { op: 'delete', at: 1 },
        { op: 'delete', at: 4 },
      ],
      insertedFirst: [{ op: 'insertAfter', at: 0, paragraph: 'Zero.' }],
      claims: [['k3', 'k9'], ['k2']],
    });
  });

  it('names what stands in the way of edits that do not fit the current version', () => {
    const problems = (edits: Partial<ReturnType<typeof revisionEdits>>) => {
      const applied = applyRevisionEdits(current, { ...revisionEdits(current, revised({})), ...edits });
      return applied.ok ? [] : applied.problems;
    };
    expect({
      noSuchParagraph: problems({ bodyEdits: [{ op: 'replace', at: 5, paragraph: 'x' }] }),
      insertPastEnd: problems({ bodyEdits: [{ op: 'insertAfter', at: 7, paragraph: 'x' }] }),
      replaceZero: problems({ bodyEdits: [{ op: 'replace', at: 0, paragraph: 'x' }] }),
      noParagraph: problems({ bodyEdits: [{ op: 'replace', at: 1 }] }),
      deleteWithText: problems({ bodyEdits: [{ op: 'delete', at: 1, paragraph: 'x' }] }),
      twice: problems({
        bodyEdits: [
          { op: 'replace', at: 2, paragraph: 'x' },
          { op: 'delete', at: 2 },
        ],
      }),
      emptied: problems({ bodyEdits: [1, 2, 3, 4].map((at) => ({ op: 'delete' as const, at })) }),
      unknownClaim: problems({ dropClaims: ['k7'] }),
      changedAndDropped: problems({ claims: [claim('k1', 'new')], dropClaims: ['k1'] }),
      noClaimLeft: problems({ dropClaims: ['k1', 'k2', 'k3'] }),
    }).toEqual({
      noSuchParagraph: ['bodyEdits[0].at: your current version has 4 paragraph(s), no ¶5'],
      insertPastEnd: ['bodyEdits[0].at: your current version has 4 paragraph(s), no ¶7'],
      replaceZero: ['bodyEdits[0].at: paragraphs are numbered from 1 (0 is only for insertAfter)'],
      noParagraph: ['bodyEdits[0]: replace needs the new paragraph'],
      deleteWithText: ['bodyEdits[0]: a delete takes no paragraph'],
      twice: ['bodyEdits[1]: ¶2 is edited twice'],
      emptied: ['bodyEdits: they leave the body empty'],
      unknownClaim: ['dropClaims[0]: your current version has no claim "k7"'],
      changedAndDropped: ['claims[0]: claim "k1" is both changed and withdrawn'],
      noClaimLeft: ['dropClaims: a proposal keeps at least one claim'],
    });
  });

  it('numbers the paragraphs the edits name, blank lines with spaces included', () => {
    expect([paragraphsOf(' a\n \nb\n\n\n\nc '), numberedBody('a\nstill a\n\nb')]).toEqual([
      ['a', 'b', 'c'],
      '¶1 a\nstill a\n\n¶2 b',
    ]);
  });
});
