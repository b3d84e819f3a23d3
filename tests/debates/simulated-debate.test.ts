import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CruxEngine } from '../../core/engine/crux-engine';
import { DEFAULT_CONFIG } from '../../core/crux/config';
import { configForAgents } from '../../core/crux/scale';
import { parseDebateLog } from '../../core/engine/log-reader';
import { appRoot } from '../../core/node/app-root';
import { DebateService } from '../../core/node/debates/debate-service';
import { Workspace } from '../../core/node/workspace/workspace';
import { nodeEntry } from '../helpers/node-entry';
import { cli } from '../helpers/run-cli';
import { eventually, tempWorkspace } from '../helpers/temp-workspace';

const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];
const IDEA = 'community-solar-coop';

let root: string;
let cleanup: () => void;
const open: Workspace[] = [];

beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-debate-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
});
afterEach(() => {
  for (const ws of open.splice(0)) ws.close();
  cleanup();
});

function workspace(): Workspace {
  const ws = Workspace.open(root);
  ws.sync();
  open.push(ws);
  return ws;
}

describe('a simulated crux debate', () => {
  it('shows its whole transcript from the log when it ended but was killed before writing it', async () => {
    const service = new DebateService(workspace());
    const run = await service.start({ ideaSlug: IDEA, agents: AGENTS.slice(0, 3), provider: 'simulated', seed: 2 });
    const written = readFileSync(join(root, run.transcriptPath), 'utf8');
    // What a kill -9 between the log's last record and the transcript leaves behind.
    rmSync(join(root, run.transcriptPath));
    expect(service.show(run.id).transcript).toBe(written);
  });

  it('runs the whole protocol offline, labelled as simulated, and writes a log and a readable transcript', async () => {
    const service = new DebateService(workspace());
    const run = await service.start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 3 });
    const { result } = run.outcome;
    expect({ status: run.outcome.status, regime: result.regime, threads: result.threads.map((t) => t.status) }).toEqual({
      status: 'completed',
      regime: 'polarized',
      threads: ['CONVERGED', 'CONVERGED'],
    });
    // The protocol was exercised, not just walked through.
    const m = result.systemMetrics;
    expect(m.messagesBlocked).toBeGreaterThan(0);
    expect(m.cruxLockFailures).toBeGreaterThan(0);
    expect(m.threadsSpawned).toBe(1);
    expect(m.moderatorInterventions.FALSIFIER_REQUEST + m.moderatorInterventions.STEELMAN_REQUEST).toBeGreaterThan(0);
    expect(m.llmCalls).toBeGreaterThan(m.messagesTotal);
    expect(m.cheapConcessions + (m.steelmanRetries > 0 ? 1 : 0)).toBeGreaterThan(0);

    const log = parseDebateLog(readFileSync(join(root, run.logPath), 'utf8'));
    expect(log.tornTail).toBe(false);
    expect(log.records[0]).toMatchObject({ type: 'debate_created', header: { provider: 'simulated', seed: 3, ideaSlug: IDEA } });
    expect(log.records.at(-1)).toMatchObject({ type: 'status', status: 'completed' });

    const transcript = readFileSync(join(root, run.transcriptPath), 'utf8');
    expect(run.transcriptPath).toBe(run.logPath.replace(/\.jsonl$/, '.md'));
    expect(transcript).toContain('> **Simulated debate.**');
    expect(transcript).toMatch(/~~refused: \w+~~/);
    expect(transcript).toContain('### Crux (primary)');
    const said = [...transcript.matchAll(/^ {2}(.+)$/gm)].map((l) => l[1] as string).filter((l) => !l.startsWith('_'));
    expect(said.length).toBeGreaterThan(20);
    expect(said.every((l) => l.startsWith('[simulated]'))).toBe(true);
  });

  it('commits the horizon its crux question asks about, not each persona’s default', async () => {
    const service = new DebateService(workspace());
    // Four personas whose defaults span 12-18mo to 10y+: a default horizon would show on the crux.
    const agents = ['ethicist', 'field-researcher', 'historian', 'optimist-engineer'];
    const run = await service.start({ ideaSlug: IDEA, agents, provider: 'simulated', seed: 7 });
    const cruxes = run.outcome.result.threads.flatMap((t) => (t.crux ? [t.crux] : []));
    expect(cruxes.length).toBeGreaterThan(0);
    for (const crux of cruxes) {
      const frame = /within (\d+) (month|year)s?/i.exec(crux.question);
      if (!frame) throw new Error(`the simulated crux names no time frame: ${crux.question}`);
      const months = Number(frame[1]) * (frame[2]?.toLowerCase() === 'year' ? 12 : 1);
      const expected = months <= 3 ? '1-3mo' : months <= 18 ? '12-18mo' : months <= 60 ? '5y' : '10y+';
      expect({
        question: crux.question,
        horizons: new Set(Object.values(crux.horizonByAgent)),
        dominant: crux.dominantHorizon,
      }).toEqual({
        question: crux.question,
        horizons: new Set([expected]),
        dominant: expected,
      });
    }
  });

  it('gives the same result for the same seed, and a different one for another seed', async () => {
    const service = new DebateService(workspace());
    // Each starts with no memory: a completed debate's episode goes into the next one's brief (core/memory).
    const forget = () => rmSync(join(root, 'council'), { recursive: true, force: true });
    const a = await service.start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 11 });
    forget();
    const b = await service.start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 11 });
    const c = await service.start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 12 });
    expect(b.outcome.result).toEqual(a.outcome.result);
    expect(c.outcome.result).not.toEqual(a.outcome.result);
  });

  it('resumes a debate killed mid-way and ends exactly where an uninterrupted one does', async () => {
    const reference = await new DebateService(workspace()).start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 5 });

    const { root: other, cleanup: cleanOther } = tempWorkspace('crucible-kill-');
    try {
      cpSync(join(appRoot(), 'ideas', IDEA), join(other, 'ideas', IDEA), { recursive: true });
      const child = spawn(
        process.execPath,
        [...nodeEntry(join(appRoot(), 'core/node/cli/main.ts')), 'debate', '--workspace', other, '--idea', IDEA, '--agents', AGENTS.join(','), '--provider', 'simulated', '--seed', '5'],
        { env: { ...process.env, CRUCIBLE_SIMULATED_LATENCY_MS: '25' }, stdio: 'ignore' },
      );
      const folder = join(other, 'ideas', IDEA, 'debates');
      const logFile = await eventually(() => {
        const name = existsSync(folder) ? readdirSync(folder).find((f) => f.endsWith('.jsonl')) : undefined;
        if (!name) return null;
        const lines = readFileSync(join(folder, name), 'utf8').split('\n').length;
        return lines > 120 ? name : null;
      }, 'the debate to be well under way', 20_000);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const id = logFile.replace(/\.jsonl$/, '');
      const before = parseDebateLog(readFileSync(join(folder, logFile), 'utf8')).records;
      expect(before.some((r) => r.type === 'status' && r.status === 'completed')).toBe(false);

      const resumed = cli(['resume', id, '--workspace', other, '--json']);
      expect(resumed.stderr).toBe('');
      const output = JSON.parse(resumed.stdout);
      expect(output.status).toBe('completed');
      expect(output.result).toEqual(reference.outcome.result);

      // Nothing accepted before the kill was lost or repeated: the log's messages are a prefix.
      const after = parseDebateLog(readFileSync(join(folder, logFile), 'utf8')).records;
      const messages = (records: typeof after) => records.filter((r) => r.type === 'event' && r.event.type === 'message_posted').map((r) => (r.type === 'event' ? r.event.id : ''));
      expect(messages(after).slice(0, messages(before).length)).toEqual(messages(before));
      expect(new Set(messages(after)).size).toBe(messages(after).length);
    } finally {
      cleanOther();
    }
  });

  it('stops cleanly as partial at the message limit and when moves keep being refused', async () => {
    const service = new DebateService(workspace());
    const capped = await service.start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 3, limits: { maxMessages: 12 } });
    expect([capped.outcome.status, capped.outcome.reason, capped.outcome.result.regime]).toEqual([
      'partial',
      'reached the limit of 12 messages',
      'partial',
    ]);
    expect(capped.outcome.result.systemMetrics.messagesTotal).toBe(12);
    const stalled = await service.start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 6, limits: { stagnationTurns: 1 } });
    expect(stalled.outcome).toMatchObject({ status: 'partial', reason: expect.stringMatching(/^stagnated: \d+ moves? in a row refused$/) });
  });

  it('grows the stage budgets of a debate of more than four agents, in its header, so its cruxes lock', async () => {
    const service = new DebateService(workspace());
    const eight = [...AGENTS, 'end-user-advocate', 'ethicist', 'historian'];
    const topic = 'Adopting a four-day work week for software teams';
    const headerConfig = (logPath: string) => {
      const first = parseDebateLog(readFileSync(join(root, logPath), 'utf8')).records[0];
      return first?.type === 'debate_created' ? first.header.config : null;
    };
    const shape = (run: Awaited<ReturnType<DebateService['start']>>) => ({
      regime: run.outcome.result.regime,
      threads: run.outcome.result.threads.map((t) => t.status),
      config: headerConfig(run.logPath),
    });
    const grown = await service.start({ topic, agents: eight, provider: 'simulated', seed: 1 });
    // The same debate held to the design page's budgets, given as its own config (used as given).
    const fixed = { budgets: DEFAULT_CONFIG.budgets, lockRetryBudget: DEFAULT_CONFIG.lockRetryBudget };
    const held = await service.start({ topic, agents: eight, provider: 'simulated', seed: 1, config: fixed });
    const four = await service.start({ topic, agents: AGENTS.slice(0, 4), provider: 'simulated', seed: 1 });
    expect({ grown: shape(grown), held: shape(held), four: headerConfig(four.logPath) }).toEqual({
      grown: {
        regime: 'polarized',
        threads: ['CONVERGED'],
        config: {
          budgets: { DISCOVERY: 16, CRUX_LOCK: 16, EVIDENCE: 28 },
          earlyExitMinMessages: 12,
          discoveryExtensionBudget: 8,
          lockRetryBudget: 8,
          evidenceStability: { minMessages: 16, window: 12 },
          threadHardCap: 80,
          devilsAdvocateAfter: 40,
          staleAfter: 80,
          stopRules: { noNewCrux: 100, coalitionsStable: 60 },
        },
      },
      held: {
        regime: 'inconclusive',
        threads: ['FAILED_LOCK'],
        config: { ...configForAgents(8), ...fixed },
      },
      // Up to four agents a debate runs on the defaults as the design page gives them: nothing is added.
      four: {},
    });
  });

  it('resumes from a log whose last line was torn by a crash', async () => {
    const ws = workspace();
    const service = new DebateService(ws);
    const full = await service.start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 8 });
    const path = join(root, full.logPath);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    // Keep about the first half and half of the next line, as a kill during a write would. The cut
    // falls before the first round planned after the middle: a kill between a call's metering and its
    // answer (both in one write) makes the call again, and the resumed debate then rightly counts a
    // call more than the uninterrupted one, so its result could not be compared whole.
    const middle = Math.floor(lines.length / 2);
    const keep = lines.findIndex((line, i) => i >= middle && line.includes('"type":"round"'));
    writeFileSync(path, `${lines.slice(0, keep).join('\n')}\n${(lines[keep] as string).slice(0, 30)}`);
    const resumed = await service.resume(full.id);
    expect(resumed.outcome.result).toEqual(full.outcome.result);
    expect(parseDebateLog(readFileSync(path, 'utf8')).tornTail).toBe(false);
  });

  it('pauses, resumes and cancels, each logged as a status', async () => {
    const ws = workspace();
    const service = new DebateService(ws);
    let engine: CruxEngine | null = null;
    const paused = service.start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 2 }, { onEngine: (e) => (engine = e) });
    (engine as unknown as CruxEngine).pause();
    await new Promise((r) => setTimeout(r, 50));
    const while0 = (engine as unknown as CruxEngine).currentState.counters.messagesTotal;
    await new Promise((r) => setTimeout(r, 100));
    expect((engine as unknown as CruxEngine).currentState.counters.messagesTotal).toBe(while0);
    (engine as unknown as CruxEngine).resume();
    const done = await paused;
    expect(done.outcome.status).toBe('completed');
    const statuses = parseDebateLog(readFileSync(join(root, done.logPath), 'utf8')).records.flatMap((r) => (r.type === 'status' ? [r.status] : []));
    expect(statuses).toEqual(['paused', 'running', 'completed']);

    const cancelled = service.start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 2 }, { onEngine: (e) => e.cancel() });
    const stopped = await cancelled;
    expect([stopped.outcome.status, stopped.outcome.reason]).toEqual(['cancelled', 'cancelled by the researcher']);
  });

  it('is listed and shown by the CLI', async () => {
    const run = await new DebateService(workspace()).start({ topic: 'Cities should ban private cars from their centres', agents: AGENTS.slice(0, 3), provider: 'simulated' });
    const listed = JSON.parse(cli(['debates', 'list', '--workspace', root, '--json']).stdout);
    expect(listed.debates).toEqual([expect.objectContaining({ id: run.id, status: run.outcome.status, provider: 'simulated', idea: null })]);
    const shown = cli(['debates', 'show', run.id, '--workspace', root]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('# Crux debate: Cities should ban private cars from their centres');
    expect(run.logPath).toBe(`debates/${run.id}.jsonl`);

    // The index is derived: without it, the debate comes back from its log, result included.
    for (const ws of open.splice(0)) ws.close();
    rmSync(join(root, '.crucible'), { recursive: true });
    const again = JSON.parse(cli(['debates', 'show', run.id, '--workspace', root, '--json']).stdout);
    expect({ status: again.status, result: again.result }).toEqual({ status: run.outcome.status, result: run.outcome.result });
  });
});
