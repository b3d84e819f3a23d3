import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AFTER_THE_DEADLINES, finishedRuns, IDEA, refused } from '../../../tests/helpers/app-harness';
import { type Channel, ledgerChannels } from '../../contract';

// The ledger:* channels on a workspace where a simulated debate has finished, its falsifiers due
// before the app's "today".

const answered = new Set<Channel>();
const f = finishedRuns('crucible-ledger-', answered, { evaluation: false });
const call = f.call;
let debateId = '';
let root = '';
beforeAll(() => {
  ({ debateId, root } = f);
});

describe('the ledger', () => {
  it('lists every falsifier with its deadline, overdue once the day has passed, and records a resolution in ledger.md', async () => {
    const before = await call('ledger:list', {});
    expect(before.today).toBe('2028-03-01');
    expect(before.problems).toEqual([]);
    expect(existsSync(join(root, 'ledger.md'))).toBe(false);
    const dated = before.falsifiers.filter((f) => f.deadlineDate === '2027-12-31');
    expect(dated.length).toBeGreaterThan(0);
    for (const f of dated) expect(f.status).toBe('overdue');
    const target = dated[0] as (typeof dated)[number];
    expect(target).toMatchObject({ debateId, ideaSlug: IDEA, debateTopic: expect.any(String) });
    expect(before.cruxes.find((c) => c.thread === target.thread)).toMatchObject({ status: 'overdue', resolved: 0 });

    const recorded = await call('ledger:resolveFalsifier', {
      debateId,
      thread: target.thread,
      agent: target.agent,
      outcome: 'survived',
      resolvedOn: '2028-01-05',
      note: 'The co-op reported 240 members.\n## not a new entry',
    });
    expect(recorded).toMatchObject({ path: 'ledger.md', conflict: false, falsifier: { status: 'resolved' } });
    const file = readFileSync(join(root, 'ledger.md'), 'utf8');
    expect(file).toContain(`## ${target.key}\n- outcome: survived\n- resolved: 2028-01-05\n`);

    const after = await call('ledger:list', {});
    expect(after.falsifiers.find((f) => f.key === target.key)?.resolution).toEqual({
      outcome: 'survived',
      resolvedOn: '2028-01-05',
      note: 'The co-op reported 240 members.\n## not a new entry',
      recordedAt: AFTER_THE_DEADLINES.toISOString(),
    });

    // The file is the researcher's: an edit by hand is what the next look shows.
    writeFileSync(join(root, 'ledger.md'), file.replace('- outcome: survived', '- outcome: falsified'));
    const edited = await call('ledger:list', {});
    expect(edited.falsifiers.find((f) => f.key === target.key)?.resolution?.outcome).toBe('falsified');
    writeFileSync(join(root, 'ledger.md'), file.replace('- outcome: survived', '- outcome: perhaps'));
    const broken = await call('ledger:list', {});
    expect(broken.problems).toEqual([
      { line: expect.any(Number), reason: expect.stringContaining('"perhaps" is not one of') },
    ]);
    expect(broken.falsifiers.find((f) => f.key === target.key)?.status).toBe('overdue');
  });

  it('refuses "survived" ahead of the deadline, wants `early` for void or ambiguous then, and refuses a day not yet come', async () => {
    rmSync(join(root, 'ledger.md'), { force: true });
    const { falsifiers } = await call('ledger:list', {});
    const target = falsifiers.find((f) => f.deadlineDate === '2027-12-31');
    if (!target) throw new Error('the debate left no falsifier due 2027-12-31');
    const at = (outcome: 'survived' | 'void' | 'falsified', resolvedOn: string, early?: boolean) =>
      call('ledger:resolveFalsifier', {
        debateId,
        thread: target.thread,
        agent: target.agent,
        outcome,
        resolvedOn,
        ...(early === undefined ? {} : { early }),
      });
    const named = `${target.agentName}'s falsifier (${target.metric} ${target.threshold} by ${target.deadline})`;
    // Survived a year before the deadline: refused even when the caller says "early".
    for (const early of [undefined, true]) {
      expect(await refused(at('survived', '2026-12-31', early))).toMatchObject({
        code: 'user_error',
        message: expect.stringContaining(`${named} is due 2027-12-31, after 2026-12-31`),
      });
    }
    expect(existsSync(join(root, 'ledger.md'))).toBe(false);
    // Void ahead of it: only when asked for.
    expect(await refused(at('void', '2026-12-31'))).toMatchObject({
      code: 'user_error',
      message: expect.stringContaining('early: true'),
    });
    expect(existsSync(join(root, 'ledger.md'))).toBe(false);
    expect(await at('void', '2026-12-31', true)).toMatchObject({ falsifier: { status: 'resolved' } });
    // Falsified can happen any day; the deadline day itself is no longer early.
    expect(await at('falsified', '2026-12-31')).toMatchObject({ falsifier: { status: 'resolved' } });
    expect(await at('survived', '2027-12-31')).toMatchObject({ falsifier: { status: 'resolved' } });
    // The app's today is 2028-03-01: a later day has not happened.
    expect(await refused(at('falsified', '2028-03-02'))).toMatchObject({
      code: 'user_error',
      message: expect.stringContaining('2028-03-02 has not come yet (today is 2028-03-01)'),
    });
    expect(readFileSync(join(root, 'ledger.md'), 'utf8')).toContain(
      `## ${target.key}\n- outcome: survived\n- resolved: 2027-12-31\n`,
    );
  });

  it('scores each agent’s calibration from the falsifiers the researcher resolved', async () => {
    rmSync(join(root, 'ledger.md'), { force: true });
    expect(await call('ledger:calibration', {})).toEqual({ agents: [] });
    const { falsifiers } = await call('ledger:list', {});
    const sided = falsifiers.filter((f) => (f.side === 'YES' || f.side === 'NO') && f.confidence !== null);
    const [first, second] = sided;
    if (!first || !second) throw new Error('the debate left fewer than two sided falsifiers with a confidence');
    const resolve = (f: (typeof sided)[number], outcome: 'survived' | 'falsified' | 'void') =>
      call('ledger:resolveFalsifier', {
        debateId,
        thread: f.thread,
        agent: f.agent,
        outcome,
        resolvedOn: '2028-01-05',
      });
    await resolve(first, 'survived');
    await resolve(second, 'falsified');
    const unscored = falsifiers.find((f) => f.key !== first.key && f.key !== second.key);
    if (unscored) await resolve(unscored, 'void');

    const { agents } = await call('ledger:calibration', {});
    // Recomputed by hand from the listed falsifiers: one forecast per scored resolution.
    const expected = new Map<string, { scored: number; brier: number; unscored: number }>();
    for (const [f, held] of [
      [first, 1],
      [second, 0],
    ] as const) {
      const row = expected.get(f.agent) ?? { scored: 0, brier: 0, unscored: 0 };
      row.brier = (row.brier * row.scored + ((f.confidence as number) - held) ** 2) / (row.scored + 1);
      row.scored++;
      expected.set(f.agent, row);
    }
    if (unscored) {
      const row = expected.get(unscored.agent) ?? { scored: 0, brier: Number.NaN, unscored: 0 };
      row.unscored++;
      expected.set(unscored.agent, row);
    }
    expect(agents.map((a) => a.agent).sort()).toEqual([...expected.keys()].sort());
    for (const a of agents) {
      const want = expected.get(a.agent);
      expect({ scored: a.scored, unscored: a.unscored }).toEqual({ scored: want?.scored, unscored: want?.unscored });
      if (a.scored > 0) expect(a.brier).toBeCloseTo(want?.brier ?? Number.NaN, 12);
      else expect(a.brier).toBeNull();
      expect(a.agentName).toBe(falsifiers.find((f) => f.agent === a.agent)?.agentName);
    }
    // Best calibrated first.
    const briers = agents.map((a) => a.brier ?? Number.POSITIVE_INFINITY);
    expect(briers).toEqual([...briers].sort((x, y) => x - y));
  });

  it('refuses a falsifier that does not exist and a date that is not one', async () => {
    expect(
      await refused(
        call('ledger:resolveFalsifier', {
          debateId,
          thread: 't9',
          agent: 'regulator',
          outcome: 'void',
          resolvedOn: '2028-01-01',
        }),
      ),
    ).toMatchObject({ code: 'user_error', message: `debate ${debateId} has no falsifier by regulator in thread t9` });
    expect(
      await refused(
        call('ledger:resolveFalsifier', {
          debateId,
          thread: 't1',
          agent: 'regulator',
          outcome: 'void',
          resolvedOn: '2028-02-30',
        }),
      ),
    ).toMatchObject({ code: 'bad_input', field: 'resolvedOn' });
  });
});

describe('coverage', () => {
  it('answered every channel of core/contract/ledger-channels.ts in this file', () => {
    expect(Object.keys(ledgerChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
