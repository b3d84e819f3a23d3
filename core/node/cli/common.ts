import { resolve } from 'node:path';
import { RUN_STATUSES, type RunStatus } from '../../engine/protocol';
import { PROVIDERS, type ProviderName } from '../debates/providers';
import { UserError, Workspace } from '../workspace/workspace';
import type { OptionSpec, ParsedArgs } from './args';

/** Options and helpers every command family shares. */
export const jsonOption: OptionSpec = { type: 'boolean', description: 'print machine-readable JSON on stdout' };

export const workspaceOption: OptionSpec = {
  type: 'string',
  value: 'DIR',
  description: 'the workspace folder (default: $CRUCIBLE_WORKSPACE, else the current folder)',
};

export const providerOption: OptionSpec = {
  type: 'string',
  value: 'NAME',
  description: 'simulated (offline, free; default), anthropic or openai (a local OpenAI-compatible server)',
};

export const seedOption: OptionSpec = { type: 'string', value: 'N', description: 'seed of the simulator (default 1)' };

export function workspaceDir(args: ParsedArgs): string {
  return resolve((args.options.workspace as string | undefined) ?? process.env.CRUCIBLE_WORKSPACE ?? process.cwd());
}

/** Opens the workspace and reconciles it with the folder, so every command sees the folder as it is. */
export function openWorkspace(args: ParsedArgs): Workspace {
  const ws = Workspace.open(workspaceDir(args));
  try {
    ws.sync();
  } catch (error) {
    ws.close();
    throw error;
  }
  return ws;
}

export function providerOf(args: ParsedArgs): ProviderName {
  const provider = (args.options.provider as string | undefined) ?? 'simulated';
  if (!PROVIDERS.includes(provider as ProviderName)) throw new UserError(`--provider must be one of ${PROVIDERS.join(', ')}`);
  return provider as ProviderName;
}

export function seedOf(args: ParsedArgs): number | undefined {
  if (args.options.seed === undefined) return undefined;
  const n = Number(args.options.seed);
  if (!Number.isInteger(n) || n < 0) throw new UserError(`--seed must be a whole number, not "${String(args.options.seed)}"`);
  return n;
}

/** A `--status` option, in the one status vocabulary of runs of every protocol. */
export function runStatusOption(text: string): RunStatus {
  if (!(RUN_STATUSES as readonly string[]).includes(text))
    throw new UserError(`--status is one of ${RUN_STATUSES.join(', ')}, not "${text}"`);
  return text as RunStatus;
}
