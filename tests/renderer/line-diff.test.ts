import { describe, expect, it } from 'vitest';
import { lineDiff, withContext } from '../../renderer/src/views/approvals/line-diff';

// The approvals preview's line diff: a proposal's change to a file, line by line, with line numbers
// on both sides, and long unchanged stretches folded.

const show = (before: string | null, after: string | null) =>
  lineDiff(before, after).map(
    (l) => `${l.kind === 'same' ? ' ' : l.kind === 'added' ? '+' : '-'}${l.before ?? '.'}:${l.after ?? '.'} ${l.text}`,
  );

describe('lineDiff', () => {
  it('aligns a changed line, an inserted one and a removed one, numbering both files', () => {
    expect(show('a\nstage: PAUSE\nb\nc\nd\n', 'a\nstage: ARCHIVE\nb\nnew\nc\n')).toEqual([
      ' 1:1 a',
      '-2:. stage: PAUSE',
      '+.:2 stage: ARCHIVE',
      ' 3:3 b',
      '+.:4 new',
      ' 4:5 c',
      '-5:. d',
    ]);
  });

  it('shows a new file as added, a removed one as removed, and no change as nothing changed', () => {
    expect(show(null, '# Note\n\ntext\n')).toEqual(['+.:1 # Note', '+.:2 ', '+.:3 text']);
    expect(show('x\ny', null)).toEqual(['-1:. x', '-2:. y']);
    expect(lineDiff('same\n', 'same\n').every((l) => l.kind === 'same')).toBe(true);
  });
});

describe('withContext', () => {
  it('keeps three lines around each change and folds the rest', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const after = before.replace('line 10', 'line ten');
    const hunks = withContext(lineDiff(before, after));
    expect(hunks.map((h) => (h.kind === 'skip' ? `… ${h.count}` : h.lines.map((l) => l.text).join('|')))).toEqual([
      '… 6',
      'line 7|line 8|line 9|line 10|line ten|line 11|line 12|line 13',
      '… 7',
    ]);
  });
});
