import { describe, expect, it } from 'vitest';
import { slugify, uniqueSlug } from './slug';

describe('slugify', () => {
  it('keeps letters of every script, folds accents and collapses the rest into single hyphens', () => {
    expect(
      [
        'Community Solar Co-op!',
        'Café  crème — über naïve',
        'Ελληνική ιδέα',
        '東京の 地下鉄',
        '  --Trailing punctuation?!--  ',
        '½ price ©2026',
        '...',
        '_private',
      ].map(slugify),
    ).toEqual([
      'community-solar-co-op',
      'cafe-creme-uber-naive',
      'ελληνικη-ιδεα',
      '東京の-地下鉄',
      'trailing-punctuation',
      '1-2-price-2026',
      'idea',
      'private',
    ]);
  });

  it('cuts long titles at a word boundary within 64 characters', () => {
    const slug = slugify('a very long title that keeps going and going well past any sensible folder name length');
    expect(slug).toBe('a-very-long-title-that-keeps-going-and-going-well-past-any');
    expect(slug.length).toBeLessThanOrEqual(64);
  });
});

describe('uniqueSlug', () => {
  it('numbers a taken slug, comparing without case', () => {
    expect(uniqueSlug('Solar', ['Solar', 'solar-2'])).toBe('solar-3');
    expect(uniqueSlug('Wind', ['solar'])).toBe('wind');
  });
});
