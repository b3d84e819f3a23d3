/**
 * The first non-empty line of a plain text, as a title (heading marks dropped, cut at 120
 * characters), and the text after that line; null when the text has no words. The page titles
 * dropped text the same way (renderer/src/views/library/drop.ts), so a dropped `.txt` file and the
 * same text dropped as text become the same idea.
 */
export function firstLine(text: string): { title: string; rest: string } | null {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => l.trim() !== '');
  if (at < 0) return null;
  const clean = (lines[at] ?? '').replace(/^#+\s*/, '').trim();
  if (clean === '') return null;
  const title = clean.length > 120 ? `${clean.slice(0, 117).trimEnd()}…` : clean;
  return { title, rest: lines.slice(at + 1).join('\n') };
}
