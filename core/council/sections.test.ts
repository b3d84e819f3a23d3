import { describe, expect, it } from 'vitest';
import { replaceSection, sectionBody } from './sections';

const readme =
  '---\nid: x\n---\n# Title\n\n## Risks\n\nold risk\n\n```\n## not a heading\n```\n\n## Open questions\n\n- why?\n';

describe('## sections', () => {
  it('replace only the named section, up to the next heading outside a code fence', () => {
    const out = replaceSection(readme, 'risks', '- the probe may not arrive');
    expect(out).toBe(
      '---\nid: x\n---\n# Title\n\n## Risks\n\n- the probe may not arrive\n\n## Open questions\n\n- why?\n',
    );
    expect(sectionBody(out, 'Risks')).toBe('- the probe may not arrive');
  });

  it('add a missing section at the end, and replace the last one without touching what precedes it', () => {
    expect(replaceSection('# T\n\nbody\n', 'Risks', 'none')).toBe('# T\n\nbody\n\n## Risks\n\nnone\n');
    expect(replaceSection(readme, 'Open questions', 'q')).toBe(readme.replace('- why?\n', 'q\n'));
    expect(sectionBody(readme, 'Missing')).toBeNull();
  });
});
