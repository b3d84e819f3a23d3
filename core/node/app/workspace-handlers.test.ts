import { describe, expect, it } from 'vitest';
import { appPerTest } from '../../../tests/helpers/app-harness';
import { readme, writeFile } from '../../../tests/helpers/temp-workspace';
import { type Channel, workspaceChannels } from '../../contract';

const answered = new Set<Channel>();
const t = appPerTest('crucible-workspace-', answered);
const { boot, call } = t;

describe('the workspace', () => {
  it('reconciles on demand and lists every file it could not take in', async () => {
    const app = await boot();
    writeFile(t.root, 'ideas/written-elsewhere/README.md', readme('Written elsewhere'));
    writeFile(t.root, 'ideas/broken/README.md', '---\ntitle: [unclosed\n---\nbody\n');
    writeFile(t.root, 'personas/half-done.md', '---\nid: half-done\n---\nPrompt.\n');
    const report = await call(app, 'workspace:sync', {});
    expect(report).toMatchObject({
      ideas: 3,
      added: 1,
      slugs: { added: ['written-elsewhere'], changed: [], removed: [] },
    });
    const { errors } = await call(app, 'workspace:errors', {});
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'ideas/broken/README.md', source: 'idea' }),
        expect.objectContaining({ source: 'persona', reason: expect.stringMatching(/name: is missing/) }),
      ]),
    );
  });
});

describe('coverage', () => {
  it('answered every channel of core/contract/workspace-channels.ts in this file', () => {
    expect(Object.keys(workspaceChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
