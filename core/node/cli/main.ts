import { ContractError } from '../../contract';
import { describeLlmFailure, LlmError } from '../../ports/llm';
import { TaxonomyError } from '../../taxonomy/taxonomy';
import { LinkRefusedError } from '../fs/read-inside';
import { invokedDirectly } from '../invoked-directly';
import { UserError } from '../workspace/workspace';
import { arenaCommands } from './arena-commands';
import { ArgError, formatHelp, parseArgs } from './args';
import { councilCommands } from './council-commands';
import { cruxCommands } from './crux-commands';
import { debateCommands } from './debate-commands';
import { evaluationCommands } from './evaluation-commands';
import { evaluationsCommands } from './evaluations-commands';
import { incubatorCommands } from './incubator-commands';
import { type CliIo, processIo } from './io';
import { ledgerCommands } from './ledger-commands';
import { memoryCommands } from './memory-commands';
import { pipelineCommands } from './pipeline-commands';
import { runCommands } from './run-commands';
import { runsCommands } from './runs-commands';
import { transcriptCommands } from './transcript-commands';
import { viewCommands } from './view-commands';
import { type Command, workspaceCommands } from './workspace-commands';

export const commands: Command[] = [
  ...workspaceCommands,
  ...viewCommands,
  ...cruxCommands,
  ...debateCommands,
  ...ledgerCommands,
  ...transcriptCommands,
  ...evaluationCommands,
  ...evaluationsCommands,
  ...runCommands(),
  ...runsCommands,
  ...arenaCommands,
  ...councilCommands,
  ...memoryCommands,
  ...incubatorCommands,
  ...pipelineCommands,
];

function overview(): string {
  const width = Math.max(...commands.map((c) => c.spec.name.length)) + 2;
  return [
    'Crucible — ideas as markdown, indexed and stress-tested.',
    '',
    'usage: npm run cli -- <command> [options]     (every command takes --help; most take --json)',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.spec.name.padEnd(width)}${c.spec.summary}`),
  ].join('\n');
}

/**
 * Runs one CLI invocation and returns its exit code: 0 done, 1 a problem with what was asked or a
 * model call that failed (one line on stderr, no stack trace), 2 a bad script file, 3 a bug in
 * Crucible.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(overview());
    return name === undefined ? 1 : 0;
  }
  const command = commands.find((c) => c.spec.name === name);
  if (!command) {
    io.err(`unknown command "${name}" (run with --help to see the commands)`);
    return 1;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(formatHelp(command.spec));
    return 0;
  }
  try {
    const args = parseArgs(rest, command.spec);
    return (await command.run(args, io)) ?? 0;
  } catch (error) {
    // A file refused under the link rule is the workspace's problem, not a bug: say which one.
    if (error instanceof ArgError || error instanceof UserError || error instanceof LinkRefusedError) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    // A handler's answer to a bad request: one line, naming the field when there is one.
    if (error instanceof ContractError && error.code !== 'internal') {
      io.err(`error: ${error.message.split('\n')[0]}`);
      return 1;
    }
    if (error instanceof LlmError) {
      io.err(`error: ${describeLlmFailure(error)}`);
      return 1;
    }
    if (error instanceof TaxonomyError) {
      io.err(`error: the taxonomy or templates are invalid:\n${error.problems.map((p) => `  ${p}`).join('\n')}`);
      return 1;
    }
    const exitCode = (error as { exitCode?: unknown }).exitCode;
    if (typeof exitCode === 'number') {
      io.err(`error: ${(error as Error).message}`);
      return exitCode;
    }
    io.err(
      `internal error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return 3;
  }
}

if (invokedDirectly(import.meta.url)) {
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`internal error: ${String(error)}\n`);
      process.exitCode = 3;
    },
  );
}
