/**
 * A word-by-word diff of two texts, for showing what a new version of a text changed: the longest
 * common subsequence of their words (compared without their spacing), with runs of kept, added and
 * removed words merged. A kept or added word carries the new text's spacing, so the kept and added
 * parts joined give the new text back exactly.
 */

export interface DiffPart {
  op: 'same' | 'added' | 'removed';
  text: string;
}

/** Past this many cells of the table a diff is not worth its time: the whole text is shown replaced. */
const MAX_CELLS = 400_000;

/** Words with the whitespace that follows each (leading whitespace sticks to the first). */
function words(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

function push(parts: DiffPart[], op: DiffPart['op'], text: string): void {
  const last = parts[parts.length - 1];
  if (last && last.op === op) last.text += text;
  else parts.push({ op, text });
}

export function wordDiff(before: string, after: string): DiffPart[] {
  if (before === after) return before === '' ? [] : [{ op: 'same', text: after }];
  const a = words(before);
  const b = words(after);
  const key = (w: string) => w.trim();
  const parts: DiffPart[] = [];
  if (a.length * b.length > MAX_CELLS) {
    if (before) parts.push({ op: 'removed', text: before });
    if (after) parts.push({ op: 'added', text: after });
    return parts;
  }
  // lcs[i][j]: the longest common run of a[i..] and b[j..], filled from the end.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        key(a[i] as string) === key(b[j] as string)
          ? (lcs[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    }
  }
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (key(a[i] as string) === key(b[j] as string)) {
      push(parts, 'same', b[j] as string);
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number)) {
      push(parts, 'removed', a[i++] as string);
    } else {
      push(parts, 'added', b[j++] as string);
    }
  }
  while (i < a.length) push(parts, 'removed', a[i++] as string);
  while (j < b.length) push(parts, 'added', b[j++] as string);
  return parts;
}
