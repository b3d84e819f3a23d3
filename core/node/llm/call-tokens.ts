import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { foldObservations, type KindObservation, type TokenTable } from '../../engine/cost-plan';
import { appRoot } from '../app-root';

/**
 * The token table the cost preview reads: `resources/call-tokens.json` as shipped (measured with
 * `npm run bench:estimate -- --measure` on the model-like fake), and `<workspace>/.crucible/call-tokens.json`,
 * which the meter moves toward what each finished run in the workspace took. The workspace's figure
 * replaces the shipped one size by size; deleting the file goes back to the shipped table.
 */

export const SHIPPED_CALL_TOKENS = join('resources', 'call-tokens.json');
const WORKSPACE_CALL_TOKENS = join('.crucible', 'call-tokens.json');

const callTokensSchema = z.object({
  calls: z.number().nonnegative(),
  input: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  output: z.number().nonnegative(),
  maxOutput: z.number().nonnegative(),
  tier: z.enum(['fast', 'standard', 'deep']),
});
const tokenTableSchema = z.record(z.string(), z.record(z.string(), callTokensSchema));
const fileSchema = z.object({ kind: z.literal('call-tokens'), kinds: tokenTableSchema });

function readTable(path: string): TokenTable | null {
  if (!existsSync(path)) return null;
  try {
    const parsed = fileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data.kinds : null;
  } catch {
    return null;
  }
}

/** The shipped table, then the workspace's (later ones win in `tokensOf`). */
export function loadCallTokens(workspace: string | null): TokenTable[] {
  const shipped = readTable(join(appRoot(), SHIPPED_CALL_TOKENS));
  if (!shipped) throw new Error(`${SHIPPED_CALL_TOKENS} is missing or not a call-tokens table`);
  const own = workspace ? readTable(join(workspace, WORKSPACE_CALL_TOKENS)) : null;
  return own ? [shipped, own] : [shipped];
}

/** The table as a file's text, rounded to whole tokens. */
export function callTokensText(table: TokenTable): string {
  const rounded: TokenTable = {};
  for (const key of Object.keys(table).sort()) {
    const bySize = table[key] ?? {};
    rounded[key] = {};
    for (const size of Object.keys(bySize).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))) {
      const t = bySize[size];
      if (!t) continue;
      rounded[key][size] = {
        ...t,
        input: Math.round(t.input),
        cacheWrite: Math.round(t.cacheWrite),
        cacheRead: Math.round(t.cacheRead),
        output: Math.round(t.output),
      };
    }
  }
  return `${JSON.stringify({ kind: 'call-tokens', kinds: rounded }, null, 2)}\n`;
}

/**
 * Folds a finished run's observations into the workspace's table. A table that cannot be read is
 * started afresh; a write that fails is given up, since a run's result never depends on its estimate.
 */
export function recordCallTokens(workspace: string, observations: readonly KindObservation[]): void {
  if (observations.length === 0) return;
  const path = join(workspace, WORKSPACE_CALL_TOKENS);
  try {
    const next = foldObservations(readTable(path) ?? {}, observations);
    mkdirSync(join(workspace, '.crucible'), { recursive: true });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, callTokensText(next));
    renameSync(temp, path);
  } catch {
    // The next finished run tries again.
  }
}
