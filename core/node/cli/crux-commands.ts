import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runReplay, ScriptError } from '../../crux';
import { UserError } from '../workspace/workspace';
import { cruxesCommand } from './cruxes-commands';
import type { Command } from './workspace-commands';

/** A script that cannot be replayed: exit code 2 and `line N: reason`, as the protocol page asks. */
export class ScriptFileError extends Error {
  readonly exitCode = 2;
}

export const cruxCommands: Command[] = [
  {
    spec: {
      name: 'replay',
      summary: 'Replay a crux debate script (JSONL) and print its result.',
      usage: 'replay FILE [--json]',
      positionals: ['FILE'],
      options: { json: { type: 'boolean', description: 'print the result as one JSON object (the default output too)' } },
    },
    run(args, io) {
      const file = resolve(args.positionals[0] as string);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        throw new UserError(`cannot read ${file}`);
      }
      try {
        io.out(JSON.stringify(runReplay(text), null, 2));
      } catch (error) {
        if (error instanceof ScriptError) throw new ScriptFileError(`${file}: ${error.message}`);
        throw error;
      }
      return 0;
    },
  },
  cruxesCommand,
];
