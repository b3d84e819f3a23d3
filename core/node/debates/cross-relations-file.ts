import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type CrossRelationsFile, crossRelationsFileSchema, EMPTY_CROSS_FILE } from '../../crux/cross-debate';
import { safeWrite } from '../fs/atomic-write';
import { readTextInside } from '../fs/read-inside';

/**
 * What the model said of pairs of cruxes from different debates (core/crux/cross-debate.ts): the
 * app's own file, beside the topic debates' logs, so it travels with the workspace and survives a
 * rebuilt index (the calls cost money). Rewritten as a whole after each answered pair.
 */
export const CROSS_RELATIONS_FILE = 'debates/crux-relations.json';

/** The stored answers, or none when there is no file; a file that is not one is reported, not ignored. */
export function readCrossRelations(root: string): { file: CrossRelationsFile; problem: string | null } {
  if (!existsSync(join(root, CROSS_RELATIONS_FILE))) return { file: EMPTY_CROSS_FILE, problem: null };
  try {
    const parsed = crossRelationsFileSchema.safeParse(JSON.parse(readTextInside(root, CROSS_RELATIONS_FILE)));
    if (parsed.success) return { file: parsed.data, problem: null };
    const issue = parsed.error.issues[0];
    return {
      file: EMPTY_CROSS_FILE,
      problem: `${CROSS_RELATIONS_FILE}: ${issue?.path.join('.') || '(top)'}: ${issue?.message ?? 'not a record of crux relations'}`,
    };
  } catch (error) {
    return { file: EMPTY_CROSS_FILE, problem: `${CROSS_RELATIONS_FILE}: ${(error as Error).message}` };
  }
}

export function writeCrossRelations(root: string, file: CrossRelationsFile): void {
  safeWrite(root, CROSS_RELATIONS_FILE, `${JSON.stringify(file, null, 1)}\n`, 'any');
}
