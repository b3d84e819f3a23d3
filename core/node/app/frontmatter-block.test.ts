import { describe, expect, it } from 'vitest';
import { setFrontmatterBlock } from './frontmatter-block';

describe('setFrontmatterBlock', () => {
  it('edits the block behind a byte order mark instead of writing a second one above it', () => {
    const text = '\ufeff---\nkind: models\nprices:\n  old: { input: 1 }\n---\n# Models\n';
    expect(setFrontmatterBlock(text, 'prices', ['  new: { input: 2 }'])).toBe(
      '\ufeff---\nkind: models\nprices:\n  new: { input: 2 }\n---\n# Models\n',
    );
  });
});
