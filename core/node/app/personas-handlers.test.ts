import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPerTest } from '../../../tests/helpers/app-harness';
import { writeFile } from '../../../tests/helpers/temp-workspace';
import { type Channel, personasChannels } from '../../contract';
import { appRoot } from '../app-root';

const answered = new Set<Channel>();
const t = appPerTest('crucible-personas-', answered);
const { boot, call } = t;

describe('personas', () => {
  it('lists personas with where each came from, a workspace file replacing the built-in one', async () => {
    const own = readFileSync(join(appRoot(), 'resources/personas/investor.md'), 'utf8').replace(
      /^name: .*$/m,
      'name: My investor',
    );
    writeFile(t.root, 'personas/investor.md', own);
    const app = await boot();
    const { personas, errors } = await call(app, 'personas:list', {});
    expect(errors).toEqual([]);
    expect(personas.find((p) => p.id === 'investor')).toMatchObject({
      name: 'My investor',
      source: 'workspace',
      role: 'debater',
    });
    expect(personas.find((p) => p.id === 'regulator')).toMatchObject({ source: 'built-in', category: null });
    const debaters = await call(app, 'personas:list', { role: 'debater' });
    expect(debaters.personas.length).toBeGreaterThanOrEqual(5);
    expect(debaters.personas.every((p) => p.role === 'debater' && p.defaultHorizon !== null)).toBe(true);
  });
});

describe('coverage', () => {
  it('answered every channel of core/contract/personas-channels.ts in this file', () => {
    expect(Object.keys(personasChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
