// A line diff for the approvals preview: what a proposal would change in a file, line by line. Pure
// (no DOM), so it is tested on its own. The common head and tail are set aside first; the middle is
// aligned by the longest common subsequence when it is small enough, else shown as removed then added
// (honest, if less tidy: a README is a few hundred lines, so that is rare).

export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
  /** Line number in the file before (1-based), for `same` and `removed`. */
  before: number | null;
  /** Line number in the file after, for `same` and `added`. */
  after: number | null;
}

export type DiffHunk = { kind: 'lines'; lines: DiffLine[] } | { kind: 'skip'; count: number };

/** Beyond this many cells the middle is not aligned (memory and time stay small). */
const MAX_CELLS = 2_000_000;

function splitLines(text: string | null): string[] {
  if (text === null || text === '') return [];
  const lines = text.split('\n');
  // A final newline ends the last line; it does not start an empty one.
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function lineDiff(before: string | null, after: string | null): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: DiffLine[] = [];
  for (let i = 0; i < head; i++) out.push({ kind: 'same', text: a[i] as string, before: i + 1, after: i + 1 });
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const n = midA.length;
  const m = midB.length;
  if (n * m > MAX_CELLS || n === 0 || m === 0) {
    for (const [i, text] of midA.entries()) out.push({ kind: 'removed', text, before: head + i + 1, after: null });
    for (const [j, text] of midB.entries()) out.push({ kind: 'added', text, before: null, after: head + j + 1 });
  } else {
    // lcs[i][j]: the longest common subsequence of midA[i..] and midB[j..].
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[i * width + j] =
          midA[i] === midB[j]
            ? (lcs[(i + 1) * width + j + 1] as number) + 1
            : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        out.push({ kind: 'same', text: midA[i] as string, before: head + i + 1, after: head + j + 1 });
        i++;
        j++;
      } else if (i < n && (j === m || (lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number))) {
        // On a tie the old line goes first: a replaced line reads as "−old, +new".
        out.push({ kind: 'removed', text: midA[i] as string, before: head + i + 1, after: null });
        i++;
      } else {
        out.push({ kind: 'added', text: midB[j] as string, before: null, after: head + j + 1 });
        j++;
      }
    }
  }
  const shift = b.length - a.length;
  for (let k = 0; k < tail; k++) {
    const ai = a.length - tail + k;
    out.push({ kind: 'same', text: a[ai] as string, before: ai + 1, after: ai + 1 + shift });
  }
  return out;
}

/** The changed lines with `context` unchanged lines around each change; longer unchanged runs fold. */
export function withContext(lines: readonly DiffLine[], context = 3): DiffHunk[] {
  const keep = lines.map(() => false);
  lines.forEach((line, i) => {
    if (line.kind === 'same') return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = true;
  });
  const out: DiffHunk[] = [];
  let skipped = 0;
  let current: DiffLine[] | null = null;
  lines.forEach((line, i) => {
    if (keep[i]) {
      if (skipped > 0) out.push({ kind: 'skip', count: skipped });
      skipped = 0;
      if (!current) {
        current = [];
        out.push({ kind: 'lines', lines: current });
      }
      current.push(line);
    } else {
      skipped++;
      current = null;
    }
  });
  if (skipped > 0) out.push({ kind: 'skip', count: skipped });
  return out;
}
