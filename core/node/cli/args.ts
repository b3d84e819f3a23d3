/** A small, strict argument parser: unknown flags are errors, never silently ignored. */
export class ArgError extends Error {}

export interface OptionSpec {
  type: 'string' | 'boolean';
  description: string;
  /** Shown in help, e.g. `DIR`. */
  value?: string;
  /** A string option that may be given more than once: every value is kept, in order, in `lists`. */
  repeatable?: boolean;
}

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  options: Record<string, OptionSpec>;
  /** Names of positional arguments, in order; a trailing `?` marks an optional one. */
  positionals: string[];
}

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | boolean>;
  /** Every value of each repeatable option, in the order given. */
  lists?: Record<string, string[]>;
}

export function parseArgs(argv: readonly string[], spec: CommandSpec): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, string | boolean> = {};
  const lists: Record<string, string[]> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      const option = spec.options[name];
      if (!option) throw new ArgError(`${spec.name}: unknown option --${name} (see --help)`);
      if (option.type === 'boolean') {
        if (eq >= 0) throw new ArgError(`${spec.name}: --${name} takes no value`);
        options[name] = true;
      } else {
        const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
        if (value === undefined) throw new ArgError(`${spec.name}: --${name} needs a value${option.value ? ` (${option.value})` : ''}`);
        options[name] = value;
        if (option.repeatable) lists[name] = [...(lists[name] ?? []), value];
      }
    } else positionals.push(arg);
  }
  const required = spec.positionals.filter((p) => !p.endsWith('?')).length;
  if (positionals.length < required) {
    throw new ArgError(`${spec.name}: missing ${spec.positionals[positionals.length]} (usage: ${spec.usage})`);
  }
  if (positionals.length > spec.positionals.length) {
    throw new ArgError(`${spec.name}: unexpected argument "${positionals[spec.positionals.length]}" (usage: ${spec.usage})`);
  }
  return { positionals, options, lists };
}

export function formatHelp(spec: CommandSpec): string {
  const lines = [`${spec.summary}`, '', `usage: npm run cli -- ${spec.usage}`];
  const entries = Object.entries(spec.options);
  if (entries.length > 0) {
    lines.push('', 'options:');
    const width = Math.max(...entries.map(([n, o]) => n.length + (o.value ? o.value.length + 1 : 0))) + 4;
    for (const [name, option] of entries) {
      const left = `--${name}${option.value ? ` ${option.value}` : ''}`;
      lines.push(`  ${left.padEnd(width)}${option.description}`);
    }
  }
  return lines.join('\n');
}
