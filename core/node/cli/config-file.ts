import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { z } from 'zod';
import { badInput } from '../app/handler';
import { parseMarkdown } from '../markdown';
import { UserError } from '../workspace/workspace';

/**
 * Reads a `--config FILE` (JSON, or YAML: `.yaml`/`.yml`, or anything not starting with `{`) into a
 * plain object. YAML goes through the app's own frontmatter parser, which is YAML and only YAML
 * (never a language that runs code), so a config file is read exactly as an idea's frontmatter is.
 */
export function readConfigFile(path: string): Record<string, unknown> {
  const abs = resolve(path);
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch {
    throw new UserError(`cannot read ${abs}`);
  }
  const name = basename(abs);
  let data: unknown;
  if (/\.json$/i.test(abs) || text.trimStart().startsWith('{')) {
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new UserError(`${name}: not valid JSON (${(error as Error).message})`);
    }
  } else {
    try {
      const body = text.replace(/^\uFEFF/, '').replace(/^---[ \t]*\r?\n/, '');
      data = parseMarkdown(`---\n${body}\n---\n`).data;
    } catch (error) {
      throw new UserError(`${name}: not valid YAML (${(error as Error).message.split('\n')[0]})`);
    }
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new UserError(
      `${name}: must hold a set of fields (an object), not ${Array.isArray(data) ? 'a list' : String(data)}`,
    );
  }
  return data as Record<string, unknown>;
}

/**
 * Checks a value against one of the contract's schemas; the first problem is one line naming the
 * file and the field (`debate.yaml: config.budgets.DISCOVERY: …`), as the handlers name it.
 */
export function validated<S extends z.ZodType>(schema: S, value: unknown, source: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UserError(`${source}: ${badInput(parsed.error).message}`);
  return parsed.data;
}
