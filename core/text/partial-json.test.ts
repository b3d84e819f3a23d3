import { describe, expect, it } from 'vitest';
import { readPartialJson } from './partial-json';

describe('readPartialJson', () => {
  it('reads every prefix of a document as the values complete so far, ending with the document', () => {
    const doc = {
      move: 'CLAIM',
      content: 'Line one "quoted" \\ back\nline two — tidal café 🌊 \u0001 done.',
      replyTo: null,
      meta: { confidence: 0.75, tags: ['a', 'b'], ok: true, n: -12.5e3 },
    };
    const text = JSON.stringify(doc, null, 1);
    let lastContent = '';
    for (let i = 0; i <= text.length; i++) {
      const partial = readPartialJson(text.slice(0, i)) as Record<string, unknown> | undefined;
      if (i === 0) expect(partial).toBeUndefined();
      if (partial === undefined) continue;
      // Whatever has arrived is a prefix of the final value, and a text field only ever grows.
      const content = typeof partial.content === 'string' ? partial.content : '';
      expect(doc.content.startsWith(content)).toBe(true);
      expect(content.length).toBeGreaterThanOrEqual(lastContent.length);
      lastContent = content;
      if (partial.move !== undefined) expect(['', 'C', 'CL', 'CLA', 'CLAI', 'CLAIM']).toContain(partial.move);
      const meta = partial.meta as Record<string, unknown> | undefined;
      if (meta?.confidence !== undefined) expect(meta.confidence).toBe(0.75);
      if (meta?.n !== undefined) expect(meta.n).toBe(-12.5e3);
      if (meta?.ok !== undefined) expect(meta.ok).toBe(true);
    }
    expect(readPartialJson(text)).toEqual(doc);
  });

  it('leaves out what has nothing to show yet and closes what is open', () => {
    expect(readPartialJson('{"a": 1, "b"')).toEqual({ a: 1 });
    expect(readPartialJson('{"a": 1, "b":')).toEqual({ a: 1 });
    expect(readPartialJson('{"a": 12')).toEqual({});
    expect(readPartialJson('{"a": tr')).toEqual({});
    expect(readPartialJson('{"a": [1, 2, {"c": "x')).toEqual({ a: [1, 2, { c: 'x' }] });
    expect(readPartialJson('{"a": "x\\')).toEqual({ a: 'x' });
    expect(readPartialJson('{"a": "x\\u00e')).toEqual({ a: 'x' });
    expect(readPartialJson('{"a": "x\\ud83c')).toEqual({ a: 'x' });
    expect(readPartialJson('  ')).toBeUndefined();
  });

  it('gives undefined for text that can never be JSON', () => {
    expect(readPartialJson('Sure! Here is')).toBeUndefined();
    expect(readPartialJson('{"a" 1}')).toBeUndefined();
    expect(readPartialJson('{"a": "\\q"}')).toBeUndefined();
    expect(readPartialJson('[1 2]')).toBeUndefined();
  });
});
