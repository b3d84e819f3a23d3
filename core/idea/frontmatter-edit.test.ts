import { describe, expect, it } from 'vitest';
import { setFrontmatterField } from './frontmatter-edit';

describe('setFrontmatterField', () => {
  it('edits only the one line, keeping comments, order and line endings', () => {
    const text = '---\r\ntitle: "A: B"\r\nstage: SPARK   # first draft\r\ntags: [x]\r\n---\r\n# A\r\n';
    expect(setFrontmatterField(text, 'stage', 'RESEARCH')).toBe(
      '---\r\ntitle: "A: B"\r\nstage: RESEARCH   # first draft\r\ntags: [x]\r\n---\r\n# A\r\n',
    );
  });

  it('adds a missing field at the end of the block, or a block when there is none', () => {
    expect(setFrontmatterField('---\ntitle: A\n---\nbody\n', 'updated', '2026-03-01')).toBe(
      '---\ntitle: A\nupdated: 2026-03-01\n---\nbody\n',
    );
    expect(setFrontmatterField('# Just text\n', 'stage', 'SPARK')).toBe('---\nstage: SPARK\n---\n# Just text\n');
  });

  it('replaces a value written over several lines', () => {
    const text = '---\ntags:\n  - a\n  - b\nrelationships:\n- target: x\n  type: related\nstage: SPARK\n---\n';
    expect(setFrontmatterField(setFrontmatterField(text, 'tags', '[c]'), 'relationships', '[]')).toBe('---\ntags: [c]\nrelationships: []\nstage: SPARK\n---\n');
  });

  it('does not touch a nested key of the same name', () => {
    const text = '---\nmeta:\n  stage: inner\nstage: SPARK\n---\n';
    expect(setFrontmatterField(text, 'stage', 'TEST')).toBe('---\nmeta:\n  stage: inner\nstage: TEST\n---\n');
  });
});
