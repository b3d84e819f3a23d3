import { describe, expect, it } from 'vitest';
import { snippetOf } from './snippet';

describe('snippetOf', () => {
  it('centres on the first word a term begins, ignoring case, accents and punctuation', () => {
    const text =
      'One two three four five six seven eight. The Café cooperative sells power; nine ten eleven twelve thirteen.';
    expect(snippetOf(text, ['cafe'], 3)).toBe('… seven eight. The [Café] cooperative sells power; …');
    expect(snippetOf(text, ['coop'], 2)).toBe('… The Café [cooperative] sells power; …');
  });

  it('falls back to the beginning when nothing matches', () => {
    expect(snippetOf('alpha beta gamma', ['zeta'], 1)).toBe('alpha beta …');
  });

  it('cuts text without spaces to length: a CJK character counts two columns, a side at most 60', () => {
    const before = '土壌の水分を安く測るために、'.repeat(8);
    const after =
      'を五ユーロのセンサーで一年を通して記録し、基準のプローブと比べて数パーセント以内かどうかを確かめる。'.repeat(4);
    const snippet = snippetOf(`${before}土壌水分${after}`, ['土壌水分']);
    const [left, right] = snippet.split(/\[土壌水分\]/);
    expect({
      left: [left?.startsWith('… '), [...(left ?? '')].length],
      marked: snippet.match(/\[[^\]]*\]/g),
      right: [right?.endsWith(' …'), [...(right ?? '')].length],
      whole: [...snippet].length < 80,
    }).toEqual({
      // 30 characters of 2 columns each, after "… ".
      left: [true, 32],
      marked: ['[土壌水分]'],
      right: [true, 32],
      whole: true,
    });
  });

  it('marks only the searched part of a long run, and keeps whole words beside it', () => {
    const run = '土壌水分の測定を安く行うための実験計画書の下書き';
    expect(snippetOf(`メモ ${run}。 次の段落`, ['土壌'])).toBe(
      'メモ [土壌]水分の測定を安く行うための実験計画書の下書き。 次の段落',
    );
    const long = `${'word '.repeat(3)}${'x'.repeat(80)} target ${'y'.repeat(80)} end`;
    expect(snippetOf(long, ['target'])).toBe(`… ${'x'.repeat(60)} [target] ${'y'.repeat(60)} …`);
  });
});
