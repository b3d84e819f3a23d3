import { describe, expect, it } from 'vitest';
import { plainText } from '../../renderer/src/ui/plain-text';

// One-line places show an idea's summary as words, without the marks of its markdown.

describe('plainText', () => {
  it('drops emphasis, code marks, link targets and block marks, and joins the lines', () => {
    expect(
      plainText(
        '## **Kites** that pull _small_ ferries\n- across the `estuary` on the [ebb](https://tides.example)\n> ~~not~~ *cheap*',
      ),
    ).toBe('Kites that pull small ferries across the estuary on the ebb not cheap');
  });

  it('keeps what only looks like a mark: snake_case, a lone star, arithmetic', () => {
    expect(plainText('read_file costs 2 * 3 units; a * b')).toBe('read_file costs 2 * 3 units; a * b');
    expect(plainText('1. First step\n2) Second')).toBe('First step Second');
  });
});
