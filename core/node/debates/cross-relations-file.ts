import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CrossRelation,
  type CrossRelationsFile,
  crossRelationsFileSchema,
  EMPTY_CROSS_FILE,
  withRelations,
} from '../../crux/cross-debate';
import { readForEdit, safeWrite } from '../fs/atomic-write';
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
    return parseCrossRelations(readTextInside(root, CROSS_RELATIONS_FILE));
  } catch (error) {
    return { file: EMPTY_CROSS_FILE, problem: `${CROSS_RELATIONS_FILE}: ${(error as Error).message}` };
  }
}

function parseCrossRelations(text: string): { file: CrossRelationsFile; problem: string | null } {
  try {
    const parsed = crossRelationsFileSchema.safeParse(JSON.parse(text));
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

/**
 * Adds answers (and what they cost) to the file as it is on disk now, not to a copy read earlier:
 * read, add, and write only if the file is still those bytes (compare-and-swap), again from the top
 * when another writer came between. Answers are paid for; no writer may drop another's.
 */
export function addCrossRelations(
  root: string,
  added: readonly CrossRelation[],
  usage: CrossRelationsFile['usage'],
): void {
  const abs = join(root, CROSS_RELATIONS_FILE);
  for (let attempt = 0; attempt < 20; attempt++) {
    const read = readForEdit(abs);
    const { file, problem } = read ? parseCrossRelations(read.text) : { file: EMPTY_CROSS_FILE, problem: null };
    // Damaged since the pass began: left as it is rather than written over with this pass alone.
    if (problem) throw new Error(`${problem} (the answers of this pass were not written)`);
    const next = `${JSON.stringify(withRelations(file, added, usage), null, 1)}\n`;
    const outcome = safeWrite(root, CROSS_RELATIONS_FILE, next, read?.hash ?? null);
    if (!outcome.conflict) return;
    // The copy set aside is this write's own, made stale by the other writer: taken back, and retried.
    rmSync(join(root, outcome.path), { force: true });
  }
  throw new Error(`${CROSS_RELATIONS_FILE} kept changing while answers were added to it`);
}
