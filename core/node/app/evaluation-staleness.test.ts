import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../../tests/helpers/temp-workspace';
import type { EvaluationDetail } from '../../contract';
import { appRoot } from '../app-root';
import { type App, createApp } from './create-app';

// The reopen triggers through a real app: the solar co-op "conflicts with" the e-bike workshop
// (strength 0.5, both READMEs say so). Re-evaluating the workshop with a material move makes the
// co-op's evaluation "may be stale", naming it; a small move is weighed and not material; a clock
// two years on wears the co-op's confidence down.

const SOLAR = 'community-solar-coop';
const EBIKE = 'ebike-repair-workshop';
let root: string;
let cleanup: () => void;
const apps: App[] = [];

beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-staleness-'));
  for (const slug of [SOLAR, EBIKE])
    cpSync(join(appRoot(), 'ideas', slug), join(root, 'ideas', slug), { recursive: true });
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  cleanup();
});

async function boot(now?: Date): Promise<App> {
  const app = await createApp({ workspaceRoot: root, watch: false, ...(now ? { clock: { now: () => now } } : {}) });
  apps.push(app);
  return app;
}

async function evaluate(app: App, slug: string, seed: number): Promise<EvaluationDetail> {
  const { id } = await app.client.invoke('evaluations:start', { slug, mode: 'quick', provider: 'simulated', seed });
  const until = Date.now() + 30_000;
  for (;;) {
    const d = await app.client.invoke('evaluations:get', { id });
    if (d.status === 'completed') return d;
    if (Date.now() > until) throw new Error(`evaluation of ${slug} did not lock`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

const related = (d: EvaluationDetail) => d.staleChecks.filter((c) => c.trigger === 'related');
const two = (n: number | null) => (n ?? 0).toFixed(2);

describe('reopen triggers', () => {
  it('a related idea re-evaluated with a material move, then a small one; and time', async () => {
    const app = await boot();
    const solar = await evaluate(app, SOLAR, 1);
    const before = await evaluate(app, EBIKE, 3);
    const after = await evaluate(app, EBIKE, 5);
    const reason = `“Independent e-bike repair workshop”, which this idea conflicts with, was re-evaluated on ${after.completedAt?.slice(0, 10)}: overall ${two(before.overallScore)} → ${two(after.overallScore)}, ${before.recommendation} → ${after.recommendation}`;
    const now = await app.client.invoke('evaluations:get', { id: solar.id });
    const compared = await app.client.invoke('ideas:compare', { slugs: [SOLAR, EBIKE] });
    expect({
      material: [
        before.recommendation !== after.recommendation ||
          Math.abs((before.overallScore ?? 0) - (after.overallScore ?? 0)) >= 1,
      ],
      related: related(now),
      reasons: now.staleReasons,
      compared: compared.ideas.map((i) => i.staleReasons),
      time: now.staleChecks.find((c) => c.trigger === 'time')?.material,
    }).toEqual({
      material: [true],
      related: [{ trigger: 'related', material: true, reason }],
      reasons: [reason],
      compared: [[reason], []],
      time: false,
    });

    // Evaluated again, the co-op is current once more: the workshop has not changed since.
    const again = await evaluate(app, SOLAR, 1);
    expect([related(again), again.staleReasons]).toEqual([[], []]);
    // A small move of the workshop is weighed, and found not material.
    const small = await evaluate(app, EBIKE, 8);
    const weighed = related(await app.client.invoke('evaluations:get', { id: again.id }));
    expect(weighed).toEqual([
      {
        trigger: 'related',
        material: false,
        reason: `“Independent e-bike repair workshop”, which this idea conflicts with, was re-evaluated on ${small.completedAt?.slice(0, 10)} (overall ${two(after.overallScore)} → ${two(small.overallScore)}): under 1 point and the same recommendation`,
      },
    ]);
    expect((await app.client.invoke('evaluations:get', { id: again.id })).staleReasons).toEqual([]);

    // Two years on, its confidence has halved twice: under the 0.7 it needed.
    await app.close();
    apps.splice(apps.indexOf(app), 1);
    const later = await boot(new Date(Date.now() + 730 * 86_400_000));
    const aged = await later.client.invoke('evaluations:get', { id: again.id });
    const time = aged.staleChecks.find((c) => c.trigger === 'time');
    expect(time?.material).toBe(true);
    expect(time?.reason).toMatch(
      /^7(29|30) days old: its confidence \d\.\d\d has decayed to \d\.\d\d \(halving every 365 days\), under the 0\.70 it needed$/,
    );
    expect(aged.staleReasons).toEqual([time?.reason]);
  }, 120_000);
});
