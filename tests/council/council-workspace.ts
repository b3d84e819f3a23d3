import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CouncilFiles } from '../../core/council/files-port';
import { nodeCouncilFiles } from '../../core/node/council/council-files';
import { loadTaxonomy } from '../../core/node/taxonomy-loader';

export const COUNCIL_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'council');
const SAMPLE_IDEAS = join(import.meta.dirname, '..', '..', 'ideas');

/** A folder holding a copy of the sample ideas, and the council's file port on it, at a fixed clock. */
export function councilWorkspace(prefix = 'crucible-council-'): {
  root: string;
  files: CouncilFiles;
  cleanup: () => void;
} {
  const root = mkdtempSync(join(tmpdir(), prefix));
  cpSync(SAMPLE_IDEAS, join(root, 'ideas'), { recursive: true });
  let n = 0;
  const files = nodeCouncilFiles(root, {
    stages: [...loadTaxonomy(null).stageIds],
    clock: { now: () => new Date('2026-04-02T09:00:00Z') },
    ids: { newId: () => `ID${String(++n).padStart(4, '0')}` },
  });
  return { root, files, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
