import type Database from 'better-sqlite3';
import { preparedPerDb } from './prepared';

/**
 * The index's mirror of the files under `council/` (migration 11): written whole from the files in
 * one transaction (core/node/council/council-mirror.ts decides when), read by memory list|search,
 * the council's lists and its figures.
 */

export interface ProposalRow {
  id: string;
  taskId: string;
  task: string;
  ideaSlug: string | null;
  folder: string;
  status: string;
  stakes: string | null;
  decision: string | null;
  decidedBy: string | null;
  ladder: number;
  versions: number;
  goal: string;
  recordJson: string;
}

export interface EpisodeRow {
  key: string;
  line: number;
  runId: string;
  protocol: string;
  ideaSlug: string | null;
  at: string;
  task: string;
  outcome: string;
  episodeJson: string;
}

export interface DecisionRow {
  key: string;
  line: number;
  taskId: string | null;
  proposal: string | null;
  at: string | null;
  decision: string | null;
  decidedBy: string | null;
  precedent: number;
  note: string | null;
  recordJson: string;
}

export interface WeightRow {
  agent: string;
  value: string;
  weight: number;
}

export interface WeightHistoryRow {
  key: string;
  line: number;
  taskId: string | null;
  at: string | null;
  agent: string | null;
  value: string | null;
  delta: number | null;
  fromWeight: number | null;
  toWeight: number | null;
  refused: number;
  reason: string | null;
}

export interface CouncilMirror {
  proposals: ProposalRow[];
  episodes: EpisodeRow[];
  decisions: DecisionRow[];
  weights: WeightRow[];
  weightHistory: WeightHistoryRow[];
}

const statements = preparedPerDb((db) => ({
  insertProposal: db.prepare(
    `INSERT OR REPLACE INTO council_proposals (id, task_id, task, idea_slug, folder, status, stakes, decision,
       decided_by, ladder, versions, goal, record_json)
     VALUES (@id, @taskId, @task, @ideaSlug, @folder, @status, @stakes, @decision, @decidedBy, @ladder, @versions,
       @goal, @recordJson)`,
  ),
  insertEpisode: db.prepare(
    `INSERT OR REPLACE INTO council_episodes (key, line, run_id, protocol, idea_slug, at, task, outcome, episode_json)
     VALUES (@key, @line, @runId, @protocol, @ideaSlug, @at, @task, @outcome, @episodeJson)`,
  ),
  insertDecision: db.prepare(
    `INSERT OR REPLACE INTO council_decisions (key, line, task_id, proposal, at, decision, decided_by, precedent, note,
       record_json)
     VALUES (@key, @line, @taskId, @proposal, @at, @decision, @decidedBy, @precedent, @note, @recordJson)`,
  ),
  insertWeight: db.prepare(
    'INSERT OR REPLACE INTO council_weights (agent, value, weight) VALUES (@agent, @value, @weight)',
  ),
  insertWeightHistory: db.prepare(
    `INSERT OR REPLACE INTO council_weight_history (key, line, task_id, at, agent, value, delta, from_weight,
       to_weight, refused, reason)
     VALUES (@key, @line, @taskId, @at, @agent, @value, @delta, @fromWeight, @toWeight, @refused, @reason)`,
  ),
  proposals: db.prepare(
    `SELECT id, task_id AS taskId, task, idea_slug AS ideaSlug, folder, status, stakes, decision,
       decided_by AS decidedBy, ladder, versions, goal, record_json AS recordJson
     FROM council_proposals ORDER BY folder, id`,
  ),
  episodes: db.prepare(
    `SELECT key, line, run_id AS runId, protocol, idea_slug AS ideaSlug, at, task, outcome, episode_json AS episodeJson
     FROM council_episodes ORDER BY line`,
  ),
  decisions: db.prepare(
    `SELECT key, line, task_id AS taskId, proposal, at, decision, decided_by AS decidedBy, precedent, note,
       record_json AS recordJson
     FROM council_decisions ORDER BY line`,
  ),
  weights: db.prepare('SELECT agent, value, weight FROM council_weights ORDER BY agent, value'),
  weightHistory: db.prepare(
    `SELECT key, line, task_id AS taskId, at, agent, value, delta, from_weight AS fromWeight, to_weight AS toWeight,
       refused, reason
     FROM council_weight_history ORDER BY line`,
  ),
}));

const TABLES = [
  'council_proposals',
  'council_episodes',
  'council_decisions',
  'council_weights',
  'council_weight_history',
];

/** Replaces the whole mirror with `mirror`, in one transaction (a reader never sees half of it). */
export function replaceCouncilMirror(db: Database.Database, mirror: CouncilMirror, stamp: () => void): void {
  const s = statements(db);
  db.transaction(() => {
    for (const table of TABLES) db.prepare(`DELETE FROM ${table}`).run();
    for (const row of mirror.proposals) s.insertProposal.run(row);
    for (const row of mirror.episodes) s.insertEpisode.run(row);
    for (const row of mirror.decisions) s.insertDecision.run(row);
    for (const row of mirror.weights) s.insertWeight.run(row);
    for (const row of mirror.weightHistory) s.insertWeightHistory.run(row);
    stamp();
  })();
}

/** The mirror as the index holds it (each table in file order, proposals by folder and id). */
export function readCouncilMirror(db: Database.Database): CouncilMirror {
  const s = statements(db);
  return {
    proposals: s.proposals.all() as ProposalRow[],
    episodes: s.episodes.all() as EpisodeRow[],
    decisions: s.decisions.all() as DecisionRow[],
    weights: s.weights.all() as WeightRow[],
    weightHistory: s.weightHistory.all() as WeightHistoryRow[],
  };
}
