import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPerTest, IDEA, OTHER, refused } from '../../../tests/helpers/app-harness';
import { type Channel, memoryChannels } from '../../contract';
import { EPISODES_FILE } from '../../memory/episode';

// memory:list against a real app on a temp workspace: the episodes of council/memory/episodes.jsonl
// newest first, one idea's alone, ranked by a query as a brief ranks them, cut by a limit, and a
// line that is no episode reported by its number.

const answered = new Set<Channel>();

const episode = (key: string, at: string, idea: string | null, task: string) => {
  const [protocol, id] = key.split(':');
  return JSON.stringify({
    key,
    id,
    protocol,
    at,
    task,
    idea,
    outcome: `${protocol} ended`,
    cruxes: [],
    keyLearnings: [`lesson of ${id}`],
  });
};

describe('the shared memory in the app', () => {
  const t = appPerTest('crucible-memory-app-', answered, [IDEA, OTHER]);
  const { boot, call } = t;

  it('lists the episodes newest first, of one idea, searched and limited, and reports a bad line', async () => {
    mkdirSync(join(t.root, 'council', 'memory'), { recursive: true });
    writeFileSync(
      join(t.root, EPISODES_FILE),
      [
        episode('crux:d1', '2026-01-01T10:00:00.000Z', IDEA, 'Should the solar cooperative sell to the grid'),
        episode('evaluation:e1', '2026-01-03T10:00:00.000Z', IDEA, 'Evaluate the cooperative'),
        episode('arena:a1', '2026-01-02T10:00:00.000Z', OTHER, 'Repair bikes for the grid workers'),
        'not json',
        episode('arena:a2', '2026-01-04T10:00:00.000Z', null, 'Lichens on city walls'),
      ].join('\n'),
    );
    const app = await boot();
    const keys = (r: { episodes: { key: string }[] }) => r.episodes.map((e) => e.key);
    const all = await call(app, 'memory:list', {});
    const ofIdea = await call(app, 'memory:list', { idea: IDEA });
    const searched = await call(app, 'memory:list', { idea: IDEA, query: 'sell solar power grid' });
    const limited = await call(app, 'memory:list', { query: 'grid workers', limit: 1 });
    expect({
      all: keys(all),
      first: all.episodes[0],
      problems: all.problems.map((p) => [p.file, p.line]),
      ofIdea: keys(ofIdea),
      searched: searched.episodes.map((e) => [e.key, e.sameIdea]),
      limited: [keys(limited), limited.total],
    }).toEqual({
      all: ['arena:a2', 'evaluation:e1', 'arena:a1', 'crux:d1'],
      first: expect.objectContaining({
        protocol: 'arena',
        runId: 'a2',
        idea: null,
        outcome: 'arena ended',
        keyLearnings: ['lesson of a2'],
        text: expect.stringContaining('[arena:a2] arena, 2026-01-04: Lichens on city walls'),
      }),
      problems: [[EPISODES_FILE, 4]],
      ofIdea: ['evaluation:e1', 'crux:d1'],
      // The idea's own first (newest first), then another idea's sharing words with the query.
      searched: [
        ['evaluation:e1', true],
        ['crux:d1', true],
        ['arena:a1', false],
      ],
      // Of no idea: by similarity alone (two words and their pair beat one word); the rest share none.
      limited: [['arena:a1'], 2],
    });
  });

  it('refuses an idea that does not exist and an empty query, naming them', async () => {
    const app = await boot();
    expect(await refused(call(app, 'memory:list', { idea: 'no-such-idea' }))).toMatchObject({
      code: 'user_error',
      message: 'no idea "no-such-idea" in this workspace',
    });
    expect(await refused(call(app, 'memory:list', { query: '   ' }))).toMatchObject({
      code: 'bad_input',
      message: expect.stringContaining('query'),
    });
  });

  it('answered every channel of core/contract/memory-channels.ts in this file', () => {
    expect(Object.keys(memoryChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
