/**
 * `ledger.md`, at the top of the workspace: how the falsifiers of crux debates resolved. It is the
 * researcher's file (the index keeps nothing of it), written by the Ledger view one entry at a time
 * and readable and editable by hand:
 *
 *   ## 01jd2…/t1/skeptical-economist
 *   - outcome: survived
 *   - resolved: 2027-12-31
 *   - recorded: 2026-11-26T10:04:00.000Z
 *   - falsifier: Skeptical Economist (NO) on "Will …?": members ≥ 200 by 2027-12-31
 *
 *   Free text: the researcher's note, any number of lines.
 *
 * An entry is a `## ` heading naming the falsifier (`<debate id>/<thread>/<agent>`), then its field
 * lines (`- name: value`, right under the heading), then the note. `outcome` and `resolved` are
 * required; `recorded` and `falsifier` are informative. Text before the first entry is kept as it is.
 */

export const LEDGER_FILE = 'ledger.md';
export const OUTCOMES = ['falsified', 'survived', 'ambiguous', 'void'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface LedgerEntry {
  key: string;
  outcome: Outcome;
  /** YYYY-MM-DD */
  resolvedOn: string;
  recordedAt: string | null;
  /** The falsifier as it read when recorded (for the reader of the file; not used). */
  falsifier: string | null;
  note: string;
  /** 1-based line of the heading. */
  line: number;
}

export interface LedgerProblem {
  line: number;
  reason: string;
}

const KEY = /^[^/\s]+\/[^/\s]+\/[^/\s]+$/;
const FIELD = /^\s*[-*]\s*(outcome|resolved|recorded|falsifier)\s*:\s*(.*)$/i;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export const LEDGER_PREAMBLE = `# Falsifier ledger

How the falsifiers of crux debates resolved. Crucible adds an entry here when you record a
resolution in its Ledger view; you may edit this file by hand. Each entry starts with a \`## \`
heading naming the falsifier (\`<debate id>/<thread>/<agent>\`), then \`- outcome:\` (${OUTCOMES.join(', ')})
and \`- resolved:\` (YYYY-MM-DD) lines; the lines after them are your note.
`;

/** `YYYY-MM-DD` naming a day that exists (no 30 February). */
export function isCalendarDay(text: string): boolean {
  const m = DAY.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}

export function ledgerKey(debateId: string, thread: string, agent: string): string {
  return `${debateId}/${thread}/${agent}`;
}

function isHeading(line: string): boolean {
  return /^#{1,2}\s/.test(line);
}

function isEntryHeading(line: string): boolean {
  return /^##\s/.test(line);
}

/** A note line that would read as a heading is escaped on the way in, and unescaped on the way out. */
function escapeNote(note: string): string {
  return note
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => (/^\s*#/.test(line) || FIELD.test(line) ? `\\${line.trimStart()}` : line))
    .join('\n')
    .trim();
}

function unescapeNote(lines: string[]): string {
  return lines
    .map((line) =>
      line.startsWith('\\#') || (line.startsWith('\\') && FIELD.test(line.slice(1))) ? line.slice(1) : line,
    )
    .join('\n')
    .trim();
}

/** Reads every entry; a damaged one is reported with its line and left out (the rest still count). */
export function parseLedger(text: string): { entries: Map<string, LedgerEntry>; problems: LedgerProblem[] } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const entries = new Map<string, LedgerEntry>();
  const problems: LedgerProblem[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (!isEntryHeading(line)) {
      i++;
      continue;
    }
    const headingLine = i + 1;
    const key =
      line
        .replace(/^##\s+/, '')
        .trim()
        .split(/\s+/)[0] ?? '';
    i++;
    const fields: Record<string, string> = {};
    while (i < lines.length && (lines[i] as string).trim() === '') i++;
    while (i < lines.length) {
      const field = FIELD.exec(lines[i] as string);
      if (!field) break;
      fields[(field[1] as string).toLowerCase()] = (field[2] as string).trim();
      i++;
    }
    const note: string[] = [];
    while (i < lines.length && !isHeading(lines[i] as string)) note.push(lines[i++] as string);

    if (!KEY.test(key)) {
      problems.push({
        line: headingLine,
        reason: `"## ${key}" does not name a falsifier as <debate id>/<thread>/<agent>`,
      });
      continue;
    }
    const outcome = (fields.outcome ?? '').toLowerCase();
    if (!(OUTCOMES as readonly string[]).includes(outcome)) {
      problems.push({
        line: headingLine,
        reason: `${key}: outcome ${fields.outcome ? `"${fields.outcome}" is not` : 'is missing; it must be'} one of ${OUTCOMES.join(', ')}`,
      });
      continue;
    }
    const resolvedOn = fields.resolved ?? '';
    if (!isCalendarDay(resolvedOn)) {
      problems.push({ line: headingLine, reason: `${key}: resolved must be a date written YYYY-MM-DD` });
      continue;
    }
    if (entries.has(key))
      problems.push({ line: headingLine, reason: `${key} is recorded twice; the later entry counts` });
    entries.set(key, {
      key,
      outcome: outcome as Outcome,
      resolvedOn,
      recordedAt: fields.recorded || null,
      falsifier: fields.falsifier || null,
      note: unescapeNote(note),
      line: headingLine,
    });
  }
  return { entries, problems };
}

export function renderEntry(entry: Omit<LedgerEntry, 'line'>): string {
  const lines = [
    `## ${entry.key}`,
    `- outcome: ${entry.outcome}`,
    `- resolved: ${entry.resolvedOn}`,
    ...(entry.recordedAt ? [`- recorded: ${entry.recordedAt}`] : []),
    ...(entry.falsifier ? [`- falsifier: ${entry.falsifier.replace(/\s+/g, ' ').trim()}`] : []),
  ];
  const note = escapeNote(entry.note);
  return `${lines.join('\n')}\n${note ? `\n${note}\n` : ''}`;
}

/**
 * The ledger with `entry` recorded: an existing entry for the same falsifier is replaced where it
 * stands (everything else in the file is kept byte for byte); a new one goes at the end. `text` null
 * means there is no file yet.
 */
export function upsertEntry(text: string | null, entry: Omit<LedgerEntry, 'line'>): string {
  const rendered = renderEntry(entry);
  if (text === null || text.trim() === '') return `${LEDGER_PREAMBLE}\n${rendered}`;
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const starts = lines.flatMap((line, i) =>
    isEntryHeading(line) &&
    line
      .replace(/^##\s+/, '')
      .trim()
      .split(/\s+/)[0] === entry.key
      ? [i]
      : [],
  );
  const out = (s: string) => s.replace(/\n/g, newline);
  if (starts.length === 0) {
    const body = text.endsWith('\n') || text.endsWith('\r\n') ? text : `${text}${newline}`;
    return `${body}${newline}${out(rendered)}`;
  }
  // Replace the last entry for the key (the one that counts); earlier duplicates stay as written.
  const start = starts[starts.length - 1] as number;
  let end = start + 1;
  while (end < lines.length && !isHeading(lines[end] as string)) end++;
  const replacement = rendered.replace(/\n$/, '').split('\n');
  const followed = end < lines.length;
  const kept = [...lines.slice(0, start), ...replacement, ...(followed ? [''] : []), ...lines.slice(end)];
  const joined = kept.join('\n');
  return out(followed || joined.endsWith('\n') ? joined : `${joined}\n`);
}
