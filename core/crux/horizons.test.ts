import { describe, expect, it } from 'vitest';
import { questionHorizon } from './horizons';

describe('questionHorizon', () => {
  it('reads the time frame a question names as the shortest horizon that covers it', () => {
    expect(questionHorizon('Will it meet its target within 18 months?')).toBe('12-18mo');
    expect(questionHorizon('Will it ship within 3 months?')).toBe('1-3mo');
    expect(questionHorizon('Will costs fall by 20% within 5 years?')).toBe('5y');
    expect(questionHorizon('Will costs fall within 1 year?')).toBe('12-18mo');
    expect(questionHorizon('Will it be standard within 24 months?')).toBe('5y');
    expect(questionHorizon('Will it last within 20 years?')).toBe('10y+');
  });

  it('is null for a question without a time frame', () => {
    expect(questionHorizon('Will it work?')).toBeNull();
    expect(questionHorizon(null)).toBeNull();
  });
});
