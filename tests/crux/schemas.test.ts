import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cruxEventSchema, cruxResultSchema } from '../../core/contract';
import { type CruxResult, replayScript } from '../../core/crux';
import { appRoot } from '../../core/node/app-root';
import { DebateService } from '../../core/node/debates/debate-service';
import { Workspace } from '../../core/node/workspace/workspace';
import { tempWorkspace } from '../helpers/temp-workspace';

// The crux result and events are schemas first (core/crux); the contract's strict copies of them
// must take what the protocol really produces, and nothing more: a field `buildResult` or an event
// gains without its schema gaining it fails here.

const scriptText = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'crux', 'crux-replay-small.jsonl'), 'utf8');
const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];
const IDEA = 'community-solar-coop';

/** The example cut after its first `lines` lines: a debate still under way. */
const prefix = (lines: number) => scriptText.split('\n').slice(0, lines).join('\n');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (value: Json): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The path of every object in `value`, deepest last. */
function objectPaths(value: Json, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => objectPaths(item, [...path, i]));
  if (!isObject(value)) return [];
  return [path, ...Object.entries(value).flatMap(([key, item]) => objectPaths(item, [...path, key]))];
}

/**
 * `value` with an unnamed key added to the object at `path`, holding a copy of one of its values: a
 * record takes that as one more entry, so only a shape that names its keys refuses it.
 */
function withExtraKey(value: Json, path: (string | number)[]): Json {
  const copy = structuredClone(value);
  let at: Json = copy;
  for (const step of path) at = (at as Record<string | number, Json>)[step] as Json;
  const object = at as Record<string, Json>;
  object.unnamedField = structuredClone(Object.values(object)[0] ?? null);
  return copy;
}

/** The labels (paths joined by dots) of the objects in `value` that let an unnamed key through. */
function acceptsUnnamedKeys(schema: z.ZodType, value: Json): string[] {
  return objectPaths(value)
    .filter((path) => schema.safeParse(withExtraKey(value, path)).success)
    .map((path) => path.join('.'));
}

describe('the crux result schema, in the contract’s strict copy', () => {
  let cleanup: () => void = () => {};
  const results: Record<string, CruxResult> = {};

  beforeAll(async () => {
    results.example = replayScript(scriptText).result;
    results.underWay = replayScript(prefix(12)).result;
    // A simulated debate: two threads, a spawn, and coalitions, which the example lacks.
    const made = tempWorkspace('crucible-schemas-');
    cleanup = made.cleanup;
    cpSync(join(appRoot(), 'ideas', IDEA), join(made.root, 'ideas', IDEA), { recursive: true });
    const ws = Workspace.open(made.root);
    ws.sync();
    try {
      const run = await new DebateService(ws).start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 3 });
      results.simulated = run.outcome.result;
    } finally {
      ws.close();
    }
  });
  afterAll(() => cleanup());

  it('takes every real result as it is, whether finished, under way or with coalitions', () => {
    const { example, underWay, simulated } = results;
    // The cases cover what could hide an unnamed field: a crux, an open thread, a coalition.
    expect([example?.threads[0]?.crux !== null, underWay?.threads[0]?.crux, simulated?.coalitions.length]).toEqual([
      true,
      null,
      2,
    ]);
    for (const result of Object.values(results)) expect(cruxResultSchema.parse(result)).toEqual(result);
  });

  it('refuses an unnamed field on any object of the result but the records keyed by agent or thread', () => {
    const simulated = results.simulated as unknown as Json;
    const open = acceptsUnnamedKeys(cruxResultSchema, simulated);
    // Records keyed by an agent or thread id take any key by design; everything else, the counts per
    // block reason or intervention kind included, is a fixed shape.
    expect(open).toEqual(
      objectPaths(simulated)
        .map((path) => path.join('.'))
        .filter((label) =>
          /^(threads\.\d+\.crux\.(positions|counterfactual|horizonByAgent)|coalitions\.\d+\.positions)$/.test(label),
        ),
    );
    expect(open.length).toBeGreaterThan(0);
  });
});

describe('the crux event schema, in the contract’s strict copy', () => {
  const { events } = replayScript(scriptText);

  it('takes every event of a real replay as it is, and refuses an unnamed field in any of them', () => {
    const all = z.array(cruxEventSchema);
    expect(all.parse(events)).toEqual(events);
    // A message's meta is the agent's own (any value); the records are keyed by agent.
    const values = events as unknown as Json[];
    const open = values.flatMap((event, i) =>
      acceptsUnnamedKeys(cruxEventSchema, event).map((label) => `${i}:${label}`),
    );
    const records = values.flatMap((event, i) =>
      objectPaths(event)
        .map((path) => path.join('.'))
        .filter((label) => /^(meta(\..+)?|crux\.(commitments|positions|counterfactual|horizonByAgent))$/.test(label))
        .map((label) => `${i}:${label}`),
    );
    expect(open).toEqual(records);
    expect(new Set(events.map((e) => e.type)).size).toBeGreaterThan(10);
  });
});
