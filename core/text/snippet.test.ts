import { describe, expect, it } from 'vitest';
import { snippetOf } from './snippet';

describe('snippetOf', () => {
  it('centres on the first word a term begins, ignoring case, accents and punctuation', () => {
    const text = 'One two three four five six seven eight. The Café cooperative sells power; nine ten eleven twelve thirteen.';
    expect(snippetOf(text, ['cafe'], 3)).toBe('… seven eight. The [Café] cooperative sells power; …');
    expect(snippetOf(text, ['coop'], 2)).toBe('… The Café [cooperative] sells power; …');
  });

  it('falls back to the beginning when nothing matches', () => {
    expect(snippetOf('alpha beta gamma', ['zeta'], 1)).toBe('alpha beta …');
  });
});
