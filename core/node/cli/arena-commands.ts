import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runArenaReplay, ScriptError } from '../../arena';
import { UserError } from '../workspace/workspace';
import type { ParsedArgs } from './args';
import { jsonOption } from './common';
import { ScriptFileError } from './crux-commands';
import type { CliIo } from './io';
import type { Command } from './workspace-commands';

/** `arena --replay FILE`: a script's result, or exit 2 with `line N: reason`. */
function replay(args: ParsedArgs, io: CliIo, file: string): number {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError(`cannot read ${path}`);
  }
  try {
    io.out(JSON.stringify(runArenaReplay(text), null, 2));
  } catch (error) {
    if (error instanceof ScriptError) throw new ScriptFileError(`${path}: ${error.message}`);
    throw error;
  }
  void args;
  return 0;
}

export const arenaCommands: Command[] = [
  {
    spec: {
      name: 'arena',
      summary: 'Run an arena (proposals, critique, revision, vote, judge, Elo) or replay an arena script.',
      usage: 'arena --replay FILE [--json]',
      positionals: [],
      options: {
        replay: { type: 'string', value: 'FILE', description: 'replay an arena script (JSONL) and print its result' },
        json: jsonOption,
      },
    },
    run(args, io) {
      const file = args.options.replay as string | undefined;
      if (file !== undefined) return replay(args, io, file);
      throw new UserError('arena: give --replay FILE');
    },
  },
];
