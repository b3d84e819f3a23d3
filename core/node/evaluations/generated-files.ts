import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FinalSynthesisDocument, finalSynthesisDocumentSchema } from '../../evaluation';
import { renderEvaluationMd, renderRedteamMd, renderSynthesisMd } from '../../evaluation/markdown';
import { ideaFile } from '../../idea/layout';
import { currentHash } from '../fs/atomic-write';
import { sha256 } from '../hasher';

/** The files an evaluation writes into its idea's folder, each rendered from the locked record. */
export const GENERATED_FILES = [
  ['synthesis.md', renderSynthesisMd],
  ['evaluation.md', renderEvaluationMd],
  ['redteam.md', renderRedteamMd],
] as const satisfies readonly (readonly [string, (doc: FinalSynthesisDocument) => string])[];

/**
 * What a generated file held when the app last wrote it, for `safeWrite`'s compare-and-swap: the
 * index's record of that write when it has one, else — after the index was deleted or rebuilt — the
 * file's own hash when its text is exactly what one of the idea's locked records renders to (the
 * records in `evaluations/<id>.json` are never edited by the app, so they say what it wrote). A file
 * that matches neither was edited by the researcher: `'edited'` matches no hash, so the new version
 * goes beside it as a conflict copy and the researcher's text stays.
 */
export function lastWrittenHash(
  root: string,
  slug: string,
  name: string,
  render: (doc: FinalSynthesisDocument) => string,
  recorded: string | null,
): string | null | 'edited' {
  const abs = join(root, ideaFile(slug, name));
  const now = currentHash(abs);
  if (now === null) return null;
  if (recorded !== null) return recorded;
  for (const doc of lockedRecords(root, slug)) {
    if (sha256(Buffer.from(render(doc), 'utf8')) === now) return now;
  }
  return 'edited';
}

function lockedRecords(root: string, slug: string): FinalSynthesisDocument[] {
  const folder = join(root, ideaFile(slug, 'evaluations'));
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const docs: FinalSynthesisDocument[] = [];
  for (const name of names) {
    try {
      const parsed = finalSynthesisDocumentSchema.safeParse(JSON.parse(readFileSync(join(folder, name), 'utf8')));
      if (parsed.success) docs.push(parsed.data);
    } catch {
      // A record that cannot be read vouches for nothing; the file is then treated as edited.
    }
  }
  return docs;
}
