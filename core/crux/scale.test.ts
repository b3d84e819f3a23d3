import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, resolveConfig } from './config';
import { replayScript } from './replay';
import { configForAgents } from './scale';
import { commit, debate, message as m, script, thread } from './script-builder';

describe('config for the number of agents', () => {
  it('leaves a debate of up to four agents on the overrides it was given', () => {
    const given = { maxLockAttempts: 2 };
    for (const agents of [2, 3, 4]) {
      expect(configForAgents(agents)).toEqual({});
      expect(configForAgents(agents, given)).toBe(given);
    }
  });

  it('grows every default counted in agent messages in proportion to the agents, and nothing else', () => {
    // Twelve agents: three times the room of four, rounded up.
    expect(resolveConfig(configForAgents(12))).toEqual({
      ...DEFAULT_CONFIG,
      budgets: { DISCOVERY: 24, CRUX_LOCK: 24, EVIDENCE: 42 },
      earlyExitMinMessages: 18,
      discoveryExtensionBudget: 12,
      lockRetryBudget: 12,
      evidenceStability: { minMessages: 24, window: 18 },
      threadHardCap: 120,
      devilsAdvocateAfter: 60,
      stopRules: { noNewCrux: 150, coalitionsStable: 90 },
      staleAfter: 120,
    });
  });

  it('uses what the debate was given as given and grows only the rest (5 agents: ×1.25, rounded up)', () => {
    const config = resolveConfig(
      configForAgents(5, { budgets: { CRUX_LOCK: 9 }, evidenceStability: { window: 3 }, maxLockAttempts: 4 }),
    );
    expect({
      budgets: config.budgets,
      lockRetryBudget: config.lockRetryBudget,
      evidenceStability: config.evidenceStability,
      maxLockAttempts: config.maxLockAttempts,
      threadHardCap: config.threadHardCap,
    }).toEqual({
      budgets: { DISCOVERY: 10, CRUX_LOCK: 9, EVIDENCE: 18 },
      lockRetryBudget: 5,
      evidenceStability: { minMessages: 10, window: 3 },
      maxLockAttempts: 4,
      threadHardCap: 50,
    });
  });
});

describe('a lock of six agents', () => {
  // Three YES, two NO, one UNCERTAIN: six commitments and, under each-across, six steelmans each with
  // its grade (every YES gives one to a NO and receives one from a NO, and the other way round):
  // 18 lock messages, none wasted, where the defaults allow at most 8 + 4 + 4.
  const agents = ['a', 'b', 'c', 'd', 'e', 'f'];
  const steelman = (from: string, to: string) => [
    m('t1', from, 'STEELMAN', { steelmanTarget: to }),
    m('t1', to, 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
  ];
  const lines = (config: Record<string, unknown>) =>
    script(
      debate(agents, config),
      thread('t1'),
      // Nine discovery messages, the question last: the defaults extend the stage once for it, the
      // grown config exits early on it.
      ...['a', 'd', 'b', 'e', 'c', 'f', 'a', 'd'].map((id) => m('t1', id, 'CLAIM')),
      m('t1', 'b', 'PROPOSE_CRUX', { question: 'Does the policy raise output within 18 months?' }),
      commit('t1', 'a', 'YES'),
      commit('t1', 'b', 'YES'),
      commit('t1', 'c', 'YES'),
      commit('t1', 'd', 'NO'),
      commit('t1', 'e', 'NO'),
      commit('t1', 'f', 'UNCERTAIN', { falsifier: undefined }),
      ...steelman('a', 'd'),
      ...steelman('b', 'e'),
      ...steelman('c', 'd'),
      ...steelman('d', 'a'),
      ...steelman('e', 'b'),
      ...steelman('d', 'c'),
    );
  const outcome = (config: Record<string, unknown>) => {
    const t1 = replayScript(lines(config)).result.threads[0];
    return { status: t1?.status, lock: t1?.stages.cruxLock };
  };

  it('fails on the defaults and locks on the config grown for six', () => {
    expect({ defaults: outcome({}), grown: outcome(configForAgents(6)) }).toEqual({
      defaults: { status: 'FAILED_LOCK', lock: { messages: 16, lockAttempts: 3 } },
      grown: { status: 'EVIDENCE', lock: { messages: 18, lockAttempts: 2 } },
    });
  });
});
