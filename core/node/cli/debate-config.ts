import { basename } from 'node:path';
import { type CruxConfigOverrides, configOverridesSchema, strictConfigOverridesSchema } from '../../crux/config';
import { UserError } from '../workspace/workspace';
import type { OptionSpec, ParsedArgs } from './args';
import { readConfigFile, validated } from './config-file';

/**
 * The protocol config a researcher tunes most, as flags of `debate`, each one field of the config.
 * Blank fields keep their default, which grows beyond four agents (docs/crux-protocol.md).
 */
export const CONFIG_FLAGS = {
  'lock-budget': {
    field: ['budgets', 'CRUX_LOCK'],
    spec: {
      type: 'string',
      value: 'N',
      description:
        'agent messages of the lock stage before its first attempt fails (budgets.CRUX_LOCK; default 8, ×agents/4 beyond four)',
    },
  },
  'lock-attempts': {
    field: ['maxLockAttempts'],
    spec: {
      type: 'string',
      value: 'N',
      description: 'failed lock attempts that close a thread as FAILED_LOCK (maxLockAttempts; default 3)',
    },
  },
  'evidence-budget': {
    field: ['budgets', 'EVIDENCE'],
    spec: {
      type: 'string',
      value: 'N',
      description: 'agent messages of the evidence stage (budgets.EVIDENCE; default 14, ×agents/4 beyond four)',
    },
  },
  'steelman-rule': {
    field: ['steelmanRule'],
    spec: {
      type: 'string',
      value: 'RULE',
      description: 'each-across (each side steelmans someone across) or pairwise (every opposite pair)',
    },
  },
} as const satisfies Record<string, { field: readonly string[]; spec: OptionSpec }>;

/** A flag's text as the schema should see it: a number when it reads as one, the text otherwise. */
function flagValue(raw: string): string | number {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
}

/** `{a: {b: value}}` for the path `['a', 'b']`. */
function nested(path: readonly string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value as never);
}

/** The file's overrides with the flags' over them, one group deep (`budgets` merges key by key). */
function merged(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const before = out[key];
    out[key] =
      typeof before === 'object' && before !== null && typeof value === 'object' && value !== null
        ? { ...before, ...value }
        : value;
  }
  return out;
}

/**
 * The protocol config of `debate --config FILE` and the config flags: the overrides a debate request
 * carries (`config` of `debates:start`), checked with the contract's fields. A key the config does
 * not name is refused, at any level: a misspelt knob would otherwise be dropped without a word. A
 * flag wins over the file, and a wrong one is named as the flag and the field.
 */
export function debateConfigOf(args: ParsedArgs): CruxConfigOverrides | undefined {
  const path = args.options.config as string | undefined;
  let config: Record<string, unknown> | undefined;
  if (path !== undefined) {
    const data = readConfigFile(path);
    const known = Object.keys(configOverridesSchema.shape);
    const unknown = Object.keys(data).find((key) => !known.includes(key));
    if (unknown !== undefined) {
      throw new UserError(
        `${basename(path)}: ${unknown}: is not a field of the protocol config (fields: ${known.join(', ')})`,
      );
    }
    config = validated(strictConfigOverridesSchema, data, basename(path));
  }
  for (const [flag, { field }] of Object.entries(CONFIG_FLAGS)) {
    const raw = args.options[flag];
    if (typeof raw !== 'string') continue;
    const one = validated(strictConfigOverridesSchema, nested(field, flagValue(raw)), `--${flag}`);
    config = merged(config ?? {}, one);
  }
  return config === undefined ? undefined : validated(strictConfigOverridesSchema, config, 'the protocol config');
}
