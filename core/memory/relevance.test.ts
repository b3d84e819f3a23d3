import { describe, expect, it } from 'vitest';
import { type Episode, episodeLine } from './episode';
import { EPISODE_CHARS, episodeText, memoryBlock, memoryLines, relevantEpisodes } from './relevance';

const ep = (id: string, at: string, task: string, idea: string | null, extra: Partial<Episode> = {}): Episode => ({
  ...episodeLine('crux', id, at, { task, idea, outcome: 'consensus', cruxes: [], keyLearnings: [] }),
  ...extra,
});

describe('the episodes a run reads', () => {
  const episodes = [
    ep('old-same', '2026-01-01T00:00:00Z', 'Kites over the bay', 'kites'),
    ep('new-same', '2026-03-01T00:00:00Z', 'Something else entirely', 'kites'),
    ep('alike', '2026-01-05T00:00:00Z', 'Soil moisture sensing on allotments', 'soil'),
    ep('less-alike', '2026-02-05T00:00:00Z', 'Soil samples in the lab', 'lab'),
    ep('unrelated', '2026-04-01T00:00:00Z', 'Mandarin podcasts', 'mandarin'),
    ep('me', '2026-04-02T00:00:00Z', 'Soil moisture sensing', 'kites'),
  ];

  it('takes the same idea first (newest first), then the most alike tasks, leaves out what shares no word and the run itself, up to k', () => {
    const query = { idea: 'kites', text: 'Soil moisture sensing', exclude: 'crux:me' };
    expect({
      k5: relevantEpisodes(episodes, query).map((e) => e.id),
      k3: relevantEpisodes(episodes, query, 3).map((e) => e.id),
      noIdea: relevantEpisodes(episodes, { idea: null, text: 'soil moisture' }).map((e) => e.id),
    }).toEqual({
      // alike: 5 shared terms of 8 … less-alike: 1 of 10; "Mandarin podcasts" shares nothing.
      k5: ['new-same', 'old-same', 'alike', 'less-alike'],
      k3: ['new-same', 'old-same', 'alike'],
      noIdea: ['me', 'alike', 'less-alike'],
    });
  });

  it('cuts each episode to 600 characters, key first, and says where it comes from', () => {
    const long = ep('long', '2026-02-01T10:00:00Z', 'Kites', 'kites', {
      cruxes: ['Will the tether hold?'],
      keyLearnings: ['x'.repeat(1000)],
    });
    const text = episodeText(long);
    const lines = memoryLines([long], { idea: 'kites', text: '' });
    expect({
      length: text.length,
      head: text.slice(0, text.indexOf('xx')),
      end: text.slice(-2),
      lines: lines.length,
    }).toEqual({
      length: EPISODE_CHARS,
      head: '[crux:long] crux on ideas/kites, 2026-02-01: Kites — consensus. Cruxes: Will the tether hold? Lessons: ',
      end: 'x…',
      lines: 1,
    });
    expect(memoryBlock(['one', 'two']).split('\n').slice(-2)).toEqual(['- one', '- two']);
  });
});
