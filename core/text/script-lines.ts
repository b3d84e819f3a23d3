import type { z } from 'zod';
import { issuePath } from './zod-issues';

// What the replay scripts of every protocol share: JSON Lines, one object per line, `type` naming
// the kind, and a failure that names the line. Each protocol's own file says which types exist and
// what each line holds.

/** A replay script that cannot be run; `message` is always `line N: reason`. */
export class ScriptError extends Error {
  readonly line: number;
  readonly reason: string;

  constructor(line: number, reason: string) {
    super(`line ${line}: ${reason}`);
    this.name = 'ScriptError';
    this.line = line;
    this.reason = reason;
  }
}

export interface Numbered<T> {
  /** 1-based line number in the file, blank lines included. */
  line: number;
  entry: T;
}

/** One line of a script read as a JSON object whose `type` is one of `types`; its fields are not checked yet. */
export function readScriptLine<T extends string>(
  text: string,
  line: number,
  types: readonly T[],
): Record<string, unknown> & { type: T } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ScriptError(line, `malformed JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ScriptError(line, 'schema violation: a line must be a JSON object');
  }
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== 'string' || !(types as readonly string[]).includes(type)) {
    throw new ScriptError(line, `schema violation at type: unknown line type ${JSON.stringify(type)}`);
  }
  return raw as Record<string, unknown> & { type: T };
}

/** A line's fields checked against its schema; the first problem names the field (`agents[0].id`). */
export function lineShape<S extends z.ZodType>(schema: S, raw: unknown, line: number): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issuePath(issue.path) : '';
    throw new ScriptError(line, `schema violation${where ? ` at ${where}` : ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
