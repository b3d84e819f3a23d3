import { describe, expect, it } from 'vitest';
import { searchableText } from './searchable-text';

describe('searchableText', () => {
  it('drops every complete comment, keeps words around it apart, and keeps an unclosed one', () => {
    const body = [
      '### Q: Who pays?',
      '<!-- asked: 2026-01-02; source: ai; gap: problem-validation -->',
      '',
      'The council<!-- multi',
      'line -->pays, <!----> mostly.',
      'A stray <!-- opening stays searchable.',
    ].join('\n');
    expect(searchableText(body)).toBe(
      ['### Q: Who pays?', ' ', '', 'The council pays,   mostly.', 'A stray <!-- opening stays searchable.'].join('\n'),
    );
  });

  it('returns a body without comments unchanged', () => {
    const body = 'Plain text with <b>html</b> and a -- dash --> arrow.';
    expect(searchableText(body)).toBe(body);
  });
});
