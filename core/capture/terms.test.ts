import { describe, expect, it } from 'vitest';
import { captureTerms } from './terms';

describe('captureTerms', () => {
  it('keeps what a text is about: no short or common words, no accents, plurals as singulars, pairs of CJK characters', () => {
    expect(
      captureTerms(
        'The Café batteries: see https://example.org/x and ＡＢＣＤ, roofs of 2026 — 土壌水分 と Obsidianの設定',
      ),
    ).toEqual(['cafe', 'battery', 'abcd', 'roof', '土壌', '壌水', '水分', 'と', 'obsidian', 'の設', '設定']);
  });

  it('keeps the marks of kana (ガス is not カス) and reads half-width kana as full-width', () => {
    expect([captureTerms('ガス'), captureTerms('ｶﾞｽ'), captureTerms('カス')]).toEqual([['ガス'], ['ガス'], ['カス']]);
  });
});
