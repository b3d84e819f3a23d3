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
        claims: [claim('k1', 'k1 said better'), claim('k3', 'claim k3', [{ source: 's', quote: 'q' }]), claim('k9')],
      }),
      // Critiques answered (each with its change), then an idea adopted and a change because of a
      // critique of another agent's proposal, which answers none of this one's.
      answering: revised({
        changes: [
          { what: 'a pilot first', because: { critique: 'c2-ben-1' } },
          { what: 'a control group', because: { critique: 'c2-cy-1' } },
          { what: 'w', because: { adopted: 'ben' } },
          { what: 'x', because: { critique: 'c2-cy-2' } },
        ],
        addressed: ['c2-ben-1', 'c2-cy-1'],
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
      claims: [edits.claims?.claims, edits.claims?.dropClaims],
      answering: [edits.answering?.answered, edits.answering?.changes],
    }).toEqual({
      unchanged: {
        bodyEdits: [],
        claims: [],
        confidence: 0.7,
        answered: {},
        changes: [{ what: 'w', own: 'o' }],
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
      // A changed claim with what changes only (k1 its text, k3 its evidence), a new one in full.
      claims: [
        [
          { id: 'k1', text: 'k1 said better' },
          { id: 'k3', evidence: [{ source: 's', quote: 'q' }] },
          { id: 'k9', text: 'claim k9', evidence: [] },
        ],
        ['k2'],
      ],
      answering: [
        { 'c2-ben-1': 'a pilot first', 'c2-cy-1': 'a control group' },
        [
          { what: 'w', adopted: 'ben' },
          { what: 'x', critique: 'c2-cy-2' },
        ],
      ],
    });
  });

  it('has no live form for a critique listed as answered with no change citing it', () => {
    expect(() => revisionEdits(current, revised({ addressed: ['c2-ben-1'] }))).toThrow(
      'c2-ben-1 is listed as answered without a change citing it',
    );
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
      changesNothing: problems({ claims: [{ id: 'k2' }] }),
      newWithoutText: problems({ claims: [{ id: 'k8', evidence: [] }] }),
      givenTwice: problems({
        claims: [
          { id: 'k8', text: 'a' },
          { id: 'k8', text: 'b' },
        ],
      }),
      twoReasons: problems({
        changes: [
          { what: 'w', own: 'o' },
          { what: 'x', own: 'o', adopted: 'ben' },
        ],
      }),
      noReason: problems({ changes: [{ what: 'w' }] }),
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
      changesNothing: ['claims[0]: claim "k2" changes nothing: give its new text, its evidence, or both'],
      newWithoutText: ['claims[0]: "k8" is a new claim (your current version has no such id) and needs its text'],
      givenTwice: ['claims[1]: claim id "k8" is given twice'],
      twoReasons: ['changes[1]: give one reason, adopted, own or critique (2 given)'],
      noReason: ['changes[0]: give one reason, adopted, own or critique (0 given)'],
    });
  });

  it('numbers the paragraphs the edits name, blank lines with spaces included', () => {
    expect([paragraphsOf(' a\n \nb\n\n\n\nc '), numberedBody('a\nstill a\n\nb')]).toEqual([
      ['a', 'b', 'c'],
      '¶1 a\nstill a\n\n¶2 b',
    ]);
  });
});
