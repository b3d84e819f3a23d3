import { describe, expect, it } from 'vitest';
import { firstLine } from './first-line';

describe('firstLine', () => {
  it('takes the first line with words as the title and keeps what follows', () => {
    expect(firstLine('\n\n  Rooftop beehives  \nfor the office block\n\nMore later.')).toEqual({
      title: 'Rooftop beehives',
      rest: 'for the office block\n\nMore later.',
    });
  });

  it('drops heading marks, cuts a long line and has nothing to say about blank text', () => {
    expect(firstLine('## Seed library\r\nbody')?.title).toBe('Seed library');
    const long = firstLine('word '.repeat(60))?.title ?? '';
    expect([long.length <= 120, long.endsWith('…')]).toEqual([true, true]);
    expect(firstLine(' \n\t\n')).toBeNull();
    expect(firstLine('###')).toBeNull();
  });
});
