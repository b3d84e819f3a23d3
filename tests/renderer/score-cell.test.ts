import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreBackground } from '../../renderer/src/views/evaluation/format';
import { accentShare, heatClass, mixColours } from '../../renderer/src/views/matrix/score-cell';

// The matrix's score colours come three ways (a cell's class, a scrolling row's strip, the inline
// colour of the idea page's strip and the legend): all three must give one colour per score.

describe('score colours', () => {
  it('mixes two hex colours as color-mix in srgb does, and leaves other forms to color-mix', () => {
    expect(mixColours('#3457d5', '#ffffff', 47)).toBe('rgb(160, 176, 235)');
    expect(mixColours('#000000', '#ffffff', 100)).toBe('rgb(0, 0, 0)');
    expect(mixColours('rgb(1, 2, 3)', '#ffffff', 50)).toBe('color-mix(in srgb, rgb(1, 2, 3) 50%, #ffffff)');
  });

  it('gives each whole score the share scoreBackground mixes and matrix.css writes for its class', () => {
    const css = readFileSync(join(import.meta.dirname, '../../renderer/src/views/matrix/matrix.css'), 'utf8');
    for (let n = 1; n <= 10; n++) {
      const share = accentShare(n);
      expect(scoreBackground(n)).toBe(`color-mix(in srgb, var(--accent) ${share}%, var(--bg-raised))`);
      expect(heatClass(n)).toBe(`h${n}`);
      expect(css).toContain(
        `.heat.h${n} {\n  background: color-mix(in srgb, var(--accent) ${share}%, var(--bg-raised));\n}`,
      );
    }
    expect(heatClass(null)).toBe('');
    expect(heatClass(7.4)).toBe('h7');
  });
});
