import { describeIssues } from '../text/zod-issues';
import { type DebateRecord, debateRecordSchema } from './debate-record';

export class DebateLogError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'DebateLogError';
  }
}

/**
 * Parses a debate log. A last line without its newline is a write the process did not finish (it
 * was killed mid-append): it is dropped, and the debate resumes from the record before it. Any other
 * bad line is an error naming the line, because it means the log was damaged, not interrupted.
 */
export function parseDebateLog(text: string): { records: DebateRecord[]; tornTail: boolean } {
  const lines = text.split('\n');
  const complete = text.endsWith('\n') || text === '';
  const tornTail = !complete && (lines[lines.length - 1] ?? '') !== '';
  // The last element is either the empty string after the final newline or the torn line.
  const usable = lines.slice(0, -1);
  const records: DebateRecord[] = [];
  usable.forEach((line, i) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new DebateLogError(i + 1, 'not valid JSON');
    }
    const parsed = debateRecordSchema.safeParse(json);
    if (!parsed.success) throw new DebateLogError(i + 1, describeIssues('record', parsed.error).join('; '));
    if (parsed.data.seq !== records.length) {
      throw new DebateLogError(i + 1, `expected record number ${records.length}, found ${parsed.data.seq}`);
    }
    records.push(parsed.data);
  });
  const first = records[0]?.type;
  if (records.length > 0 && first !== 'debate_created' && first !== 'run_created') {
    throw new DebateLogError(1, 'a run log starts with its header (debate_created or run_created)');
  }
  return { records, tornTail };
}
