import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import { logHeader, type PipelineEntry } from '../../pipeline/log';
import { LinkRefusedError } from '../fs/read-inside';
import { Workspace } from '../workspace/workspace';
import { appendEntry, readEntries } from './pipeline-log-file';

const SLUG = 'tidal-kites';
const LOG = join('ideas', SLUG, 'pipeline.md');
const entry = (note: string): PipelineEntry => ({
  at: '2026-03-05T09:00:00.000Z',
  day: '2026-03-05',
  step: 'capture',
  event: 'enrolled',
  costUsd: 0,
  note,
});

describe("an idea's pipeline log", () => {
  let root = '';
  let cleanup = () => {};
  beforeEach(() => {
    ({ root, cleanup } = tempWorkspace('crucible-pipeline-log-'));
    writeFile(root, `ideas/${SLUG}/README.md`, '# Tidal kites\n');
  });
  afterEach(() => cleanup());

  it('refuses to write into a note of the researcher that is named pipeline.md, and leaves it as it was', () => {
    const note = '# My pipeline of thoughts\n\nKites first, then tides.\n';
    writeFile(root, LOG, note);
    expect(() => appendEntry(root, SLUG, 'Tidal kites', entry('sent through'))).toThrow(
      `${LOG} is not a pipeline log (its first line does not start with "# Pipeline log:")`,
    );
    expect(readFileSync(join(root, LOG), 'utf8')).toBe(note);
  });

  it('starts a new line when the log was left without its last newline', () => {
    appendEntry(root, SLUG, 'Tidal kites', entry('first'));
    writeFileSync(join(root, LOG), `${readFileSync(join(root, LOG), 'utf8')}a remark of mine, no newline`);
    appendEntry(root, SLUG, 'Tidal kites', entry('second'));
    const lines = readFileSync(join(root, LOG), 'utf8').split('\n');
    expect(lines.slice(-3, -1)).toEqual(['a remark of mine, no newline', expect.stringMatching(/^- .*second/)]);
    expect(readEntries(root, SLUG).map((e) => e.note)).toEqual(['first', 'second']);
  });

  it('writes the header once, into an empty file as into a new one', () => {
    writeFile(root, LOG, '');
    appendEntry(root, SLUG, 'Tidal kites', entry('first'));
    appendEntry(root, SLUG, 'Tidal kites', entry('second'));
    const text = readFileSync(join(root, LOG), 'utf8');
    expect(text.startsWith(logHeader('Tidal kites'))).toBe(true);
    expect(text.split(logHeader('Tidal kites')).length).toBe(2);
  });

  it('refuses a symbolic link in the log’s place with the workspace’s link error, writing nothing through it', () => {
    const outside = join(root, 'elsewhere.md');
    writeFileSync(outside, `${logHeader('Tidal kites')}`);
    symlinkSync(outside, join(root, LOG));
    expect(() => appendEntry(root, SLUG, 'Tidal kites', entry('sent through'))).toThrow(LinkRefusedError);
    expect(readFileSync(outside, 'utf8')).toBe(logHeader('Tidal kites'));
  });

  it('reports what it wrote so the workspace takes the watcher’s echo of it for its own', () => {
    const ws = Workspace.open(root);
    try {
      const written = appendEntry(root, SLUG, 'Tidal kites', entry('first'));
      ws.recordOwnWrite(written.path, written);
      expect(ws.isOwnWrite(LOG)).toBe(true);
      // A hand edit afterwards is not the app's.
      writeFileSync(join(root, LOG), `${readFileSync(join(root, LOG), 'utf8')}a remark\n`);
      expect(ws.isOwnWrite(LOG)).toBe(false);
    } finally {
      ws.close();
    }
  });
});
