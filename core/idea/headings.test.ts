import { describe, expect, it } from 'vitest';
import { firstHeading, firstParagraph } from './headings';

describe('a note’s title and summary from its markdown', () => {
  it('takes the first level-1 heading, written either way, never a line of code, without its marks', () => {
    const cases = [
      '# Soil sensing on a budget\n\nText.',
      '```sh\n# install the tools\n```\n\n# The real title\n',
      '~~~\n# not this\n~~~\nSetext title\n============\n\nText.',
      '## A section\n\nProse first.\n\n   # Indented *title* with `code` {#anchor}\n',
      '# [[研究ノート|研究]]：土壌水分の **測定** #\n',
      '#hashtag line\n\n# [Linked](https://example.org) title\n',
      'Just prose.\n\n## Only sections\n',
      '# C# and my_file_name\n',
    ];
    expect(cases.map(firstHeading)).toEqual([
      'Soil sensing on a budget',
      'The real title',
      'Setext title',
      'Indented title with code',
      '研究：土壌水分の 測定',
      'Linked title',
      null,
      'C# and my_file_name',
    ]);
  });

  it('takes the first paragraph of prose: past headings, code, comments, pictures and tables', () => {
    expect([
      firstParagraph(
        '# Title\n\n<!-- a template note -->\n![a map](map.png)\n\n| a | b |\n\nThe **idea**, in\ntwo lines.\n\nMore.',
      ),
      firstParagraph('Setext\n======\n\n```\ncode\n```\n> Quoted [[Note|note]].\n'),
      firstParagraph('## Only a heading\n'),
    ]).toEqual(['The idea, in two lines.', 'Quoted note.', '']);
  });
});
