import { describe, expect, it } from 'vitest';
import { appPerTest } from '../../../tests/helpers/app-harness';
import { type Channel, taxonomyChannels } from '../../contract';

const answered = new Set<Channel>();
const t = appPerTest('crucible-taxonomy-', answered);
const { boot, call } = t;

describe('the taxonomy', () => {
  it('gives the taxonomy for the UI', async () => {
    const app = await boot();
    const taxonomy = await call(app, 'taxonomy:get', {});
    expect(taxonomy.stages[0]).toMatchObject({ id: 'SPARK' });
    expect(taxonomy.categories.flatMap((c) => c.criteria)).toHaveLength(30);
    expect(taxonomy.categories.reduce((sum, c) => sum + c.weight, 0)).toBeCloseTo(1);
    expect(taxonomy.types.map((t) => t.id)).toContain('research');
  });
});

describe('coverage', () => {
  it('answered every channel of core/contract/taxonomy-channels.ts in this file', () => {
    expect(Object.keys(taxonomyChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
