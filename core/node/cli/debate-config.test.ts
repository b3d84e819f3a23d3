import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { debateConfigOf } from './debate-config';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crucible-debate-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** What `debate` would send as its config, or the one-line error the researcher would read. */
function configOf(options: Record<string, string>): unknown {
  try {
    return debateConfigOf({ positionals: [], options });
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the protocol config of debate: --config FILE and the flags', () => {
  it('merges the flags over the file, group by group', () => {
    const path = file('debate.yaml', 'maxLockAttempts: 1\nbudgets:\n  DISCOVERY: 3\n  CRUX_LOCK: 5\n');
    expect(
      configOf({
        config: path,
        'lock-budget': '12',
        'lock-attempts': '4',
        'evidence-budget': '20',
        'steelman-rule': 'pairwise',
      }),
    ).toEqual({
      maxLockAttempts: 4,
      budgets: { DISCOVERY: 3, CRUX_LOCK: 12, EVIDENCE: 20 },
      steelmanRule: 'pairwise',
    });
    expect(configOf({})).toBeUndefined();
  });

  it('names the file or the flag, and the field, of whatever is wrong, misspelt keys at any level included', () => {
    expect([
      configOf({ config: file('a.json', '{"budgets":{"DISCOVRY":3}}') }),
      configOf({ config: file('b.json', '{"budget":{"DISCOVERY":3}}') }),
      configOf({ config: file('c.yaml', 'evidenceStability:\n  window: 0\n') }),
      configOf({ 'lock-budget': '0' }),
      configOf({ 'lock-budget': 'many' }),
      configOf({ 'lock-attempts': '2.5' }),
      configOf({ 'evidence-budget': '-3' }),
      configOf({ 'steelman-rule': 'both' }),
    ]).toEqual([
      'a.json: budgets.DISCOVRY: is not a field of this input',
      expect.stringMatching(/^b\.json: budget: is not a field of the protocol config \(fields: budgets, /),
      'c.yaml: evidenceStability.window: Too small: expected number to be >0',
      '--lock-budget: budgets.CRUX_LOCK: Too small: expected number to be >0',
      '--lock-budget: budgets.CRUX_LOCK: Invalid input: expected number, received string',
      '--lock-attempts: maxLockAttempts: Invalid input: expected int, received number',
      '--evidence-budget: budgets.EVIDENCE: Too small: expected number to be >0',
      '--steelman-rule: steelmanRule: Invalid option: expected one of "each-across"|"pairwise"',
    ]);
  });
});
