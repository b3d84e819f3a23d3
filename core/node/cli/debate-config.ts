import { basename } from 'node:path';
import { type CruxConfigOverrides, configOverridesSchema } from '../../crux/config';
import { UserError } from '../workspace/workspace';
import type { ParsedArgs } from './args';
import { readConfigFile, validated } from './config-file';

/**
 * The protocol config of `debate --config FILE`: the overrides a debate request carries (`config` of
 * `debates:start`: stage budgets, lock attempts, steelman rule …), checked with the contract's schema.
 * The schema lets unknown keys through (a debate line may carry more), so a key it does not name is
 * refused here: a misspelt knob would otherwise be dropped without a word.
 */
export function debateConfigOf(args: ParsedArgs): CruxConfigOverrides | undefined {
  const path = args.options.config as string | undefined;
  if (path === undefined) return undefined;
  const data = readConfigFile(path);
  const known = Object.keys(configOverridesSchema.shape);
  const unknown = Object.keys(data).find((key) => !known.includes(key));
  if (unknown !== undefined) {
    throw new UserError(
      `${basename(path)}: ${unknown}: is not a field of the protocol config (fields: ${known.join(', ')})`,
    );
  }
  return validated(configOverridesSchema, data, basename(path));
}
