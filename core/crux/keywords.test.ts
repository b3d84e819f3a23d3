import { describe, expect, it } from 'vitest';
import { hasVagueWord, isMeasurementQuestion, jaccard, keywords, repetitionRatio } from './keywords';

describe('keywords', () => {
  it('keeps lower-cased letter runs of 4+ letters that are not stop words, duplicates included', () => {
    expect(keywords('Will the PRICE of café-bonds rise? The price, the price! B2B data über alles')).toEqual([
      'price',
      'café',
      'bonds',
      'rise',
      'price',
      'price',
      'data',
      'über',
      'alles',
    ]);
    expect(keywords('that this with from have would does what when where which than then them')).toEqual([]);
    expect(keywords('they their there these those into about within more less only also been were your')).toEqual([]);
    expect(keywords('each some such very just over under after before because while')).toEqual([]);
  });

  it('measures Jaccard similarity of keyword sets, two empty sets being identical', () => {
    expect(jaccard(['alpha', 'beta'], ['beta', 'gamma'])).toBeCloseTo(1 / 3, 12);
    expect(jaccard(['alpha', 'alpha'], ['alpha'])).toBe(1);
    expect(jaccard([], [])).toBe(1);
    expect(jaccard(['alpha'], [])).toBe(0);
  });

  it('computes the repetition ratio over all keywords of several texts', () => {
    expect(repetitionRatio(['output gains', 'output data', 'gains'])).toBe(5 / 3);
    expect(repetitionRatio(['', 'a b c'])).toBe(0);
  });
});

describe('vague words and measurement questions', () => {
  it('finds vague words as whole words, in any case', () => {
    expect(['It PROBABLY rises', 'might,', 'Seems fine', 'it feels', 'generally'].map(hasVagueWord)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['improbably', 'mighty', 'seemsly', 'feelsgood', 'generallyspeaking'].map(hasVagueWord)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('spots measurement phrasings', () => {
    expect(
      [
        'Will correlation with equities exceed 0.5?',
        'WILL   VOLATILITY halve?',
        'Will price reach 100?',
        'Is bitcoin a risk asset?',
        'Will prices of housing fall?',
      ].map(isMeasurementQuestion),
    ).toEqual([true, true, true, false, true]);
  });
});
