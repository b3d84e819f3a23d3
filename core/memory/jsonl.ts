import type { CouncilFiles } from '../council/files-port';

/**
 * The JSONL files of the workspace's memory (`council/`): read leniently, appended once per key.
 * They go through the council's file port, so every write is the workspace's safe write.
 */
export type JsonlFiles = Pick<CouncilFiles, 'read' | 'write' | 'remove'>;

/** Attempts at an append while other writers keep changing the file (runs finishing side by side). */
const APPEND_ATTEMPTS = 8;

/** The lines of a JSONL file the app owns (a torn or foreign line is skipped, never fatal). */
export function readLines<T>(files: Pick<JsonlFiles, 'read'>, path: string): T[] {
  return parseLines<T>(files.read(path)?.text ?? '').values;
}

/** Each parsed line with its number; the lines that are not JSON objects, by number, with why. */
export function parseLines<T>(text: string): {
  values: T[];
  numbered: { line: number; value: T }[];
  bad: { line: number; reason: string }[];
} {
  const numbered: { line: number; value: T }[] = [];
  const bad: { line: number; reason: string }[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      const value = JSON.parse(raw) as unknown;
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        bad.push({ line: i + 1, reason: 'not a JSON object' });
      else numbered.push({ line: i + 1, value: value as T });
    } catch {
      bad.push({ line: i + 1, reason: 'not JSON (a torn write?)' });
    }
  });
  return { values: numbered.map((n) => n.value), numbered, bad };
}

/**
 * Appends the records whose key is not in the file yet. The write is made against the bytes just
 * read: when another writer appended meanwhile, our copy (left beside it as a conflict copy by the
 * safe write) is removed and the append starts over from the file as it is now, so no line of
 * either writer is lost and none is written twice.
 */
export function appendOnce(
  files: JsonlFiles,
  path: string,
  records: readonly ({ key: string } & Record<string, unknown>)[],
): void {
  for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt++) {
    const current = files.read(path);
    const text = current?.text ?? '';
    const have = new Set(parseLines<{ key?: string }>(text).values.map((r) => r.key));
    const fresh = records.filter((r) => !have.has(r.key));
    if (fresh.length === 0) return;
    const head = text === '' || text.endsWith('\n') ? text : `${text}\n`;
    const report = files.write(path, head + fresh.map((r) => `${JSON.stringify(r)}\n`).join(''), current?.hash ?? null);
    if (!report.conflict) return;
    files.remove(report.path, 'any');
  }
  throw new Error(`${path} kept changing while a line was appended to it (${APPEND_ATTEMPTS} attempts)`);
}
