import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES } from '../../core/contract';
import { CHANNEL_COMMANDS } from '../../core/node/cli/channel-commands';
import { commands } from '../../core/node/cli/main';

// The gap between the contract and the CLI stays closed: every channel has a command that exists
// (with the options and the action it names) or a reason written beside it, and docs/cli.md shows
// the same table.
describe('every channel of the contract is reached by the CLI', () => {
  it('names, for every channel, a real command or a short list of exemptions', () => {
    const problems: string[] = [];
    for (const channel of CHANNEL_NAMES) {
      const reach = CHANNEL_COMMANDS[channel];
      if (!reach) {
        problems.push(`${channel}: no command and no reason`);
        continue;
      }
      if ('exempt' in reach) continue;
      const [name, ...rest] = reach.command.split(' ');
      const command = commands.find((c) => c.spec.name === name);
      if (!command) {
        problems.push(`${channel}: there is no command "${name}"`);
        continue;
      }
      for (const flag of rest.filter((w) => w.startsWith('--'))) {
        if (!command.spec.options[flag.slice(2)]) problems.push(`${channel}: ${name} has no option ${flag}`);
      }
      // An action word (`debates pause ID`) must be one the command's usage offers.
      const action = rest[0];
      if (command.spec.positionals[0] === 'ACTION') {
        if (action === undefined || !new RegExp(`\\b${action}\\b`).test(command.spec.usage)) {
          problems.push(`${channel}: "${name} ${action}" is not an action of ${name}`);
        }
      }
    }
    expect(problems).toEqual([]);
    const exempt = CHANNEL_NAMES.filter((c) => 'exempt' in CHANNEL_COMMANDS[c]);
    expect(exempt).toEqual([
      'ideas:captureUpload',
      'ideas:attachUpload',
      'ideas:developCancel',
      'debates:saveCruxLayout',
      'settings:setKey',
      'settings:clearKey',
      'export:cancel',
    ]);
  });

  it('docs/cli.md shows exactly this table', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'cli.md'), 'utf8');
    const rows = doc.split('\n').filter((line) => /^\| `[a-z]+:[A-Za-z]+` \|/.test(line));
    const expected = CHANNEL_NAMES.map((c) => {
      const reach = CHANNEL_COMMANDS[c];
      return 'command' in reach ? `| \`${c}\` | \`${reach.command}\` |` : `| \`${c}\` | none: ${reach.exempt} |`;
    });
    expect(rows).toEqual(expected);
  });
});
