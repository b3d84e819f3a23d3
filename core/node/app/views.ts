import { join, sep } from 'node:path';
import type {
  DebateDetail,
  DebateSummary,
  IdeaSummary,
  PersonaSummary,
  SyncReportView,
  TaxonomyView,
} from '../../contract';
import type { DebateHeader, DebateStatus } from '../../engine/debate-record';
import type { Persona } from '../../personas/persona';
import type { Taxonomy } from '../../taxonomy/taxonomy';
import type { DebateService } from '../debates/debate-service';
import type { IdeaListRow } from '../sqlite/index-sql';
import type { SyncReport } from '../workspace/sync-pass';

// The main side's values in the contract's shapes. Every field is named on purpose: what is not
// mapped here (content hashes, system prompts) does not reach the UI.

export function ideaSummary(row: IdeaListRow): IdeaSummary {
  return {
    slug: row.slug,
    id: row.id,
    title: row.title,
    type: row.type,
    stage: row.stage,
    tags: row.tags,
    summary: row.summary,
    created: row.created,
    updated: row.updated,
    stale: row.stale,
    overallScore: row.overallScore,
    confidence: row.confidence,
    evaluatedAt: row.evaluatedAt,
  };
}

export function syncReportView(report: SyncReport): SyncReportView {
  return {
    ideas: report.ideas,
    files: report.files,
    added: report.added,
    changed: report.changed,
    removed: report.removed,
    errors: report.errors.map((e) => ({ file: e.file, reason: e.reason })),
    durationMs: report.durationMs,
    slugs: { added: report.slugs.added, changed: report.slugs.changed, removed: report.slugs.removed },
  };
}

export function taxonomyView(taxonomy: Taxonomy): TaxonomyView {
  return {
    stages: taxonomy.stages.map((s) => ({
      id: s.id,
      name: s.name,
      phase: s.phase ?? null,
      description: s.description,
      exitCriteria: s.exitCriteria ?? null,
    })),
    types: taxonomy.types.map((t) => ({ id: t.id, name: t.name, description: t.description, focus: t.focus ?? [] })),
    categories: taxonomy.categories.map((c) => ({
      id: c.id,
      name: c.name,
      weight: c.weight,
      description: c.description ?? null,
      criteria: c.criteria.map((k) => ({
        id: k.id,
        name: k.name,
        description: k.description,
        scale: { low: k.scale.low, high: k.scale.high },
        critical: k.critical ?? false,
      })),
    })),
    scale: { min: taxonomy.scale.min, max: taxonomy.scale.max },
    tagCategories: taxonomy.tagCategories.map((c) => ({
      id: c.id,
      name: c.name,
      tags: c.tags.map((t) => ({ id: t.id, description: t.description ?? null })),
    })),
  };
}

export function personaSummary(persona: Persona, workspaceRoot: string): PersonaSummary {
  const own = persona.file.startsWith(join(workspaceRoot, 'personas') + sep);
  return {
    id: persona.id,
    name: persona.name,
    role: persona.role,
    tier: persona.tier,
    description: persona.description,
    interests: persona.interests,
    source: own ? 'workspace' : 'built-in',
    file: persona.file,
    side: persona.role === 'debater' ? (persona.side ?? null) : null,
    defaultHorizon: persona.role === 'debater' ? persona.defaultHorizon : null,
    category: persona.role === 'evaluator' ? persona.category : null,
    mode: persona.role === 'red-team' ? persona.mode : null,
  };
}

export function debateSummary(row: ReturnType<DebateService['list']>[number], live: boolean): DebateSummary {
  return {
    id: row.id,
    topic: row.topic,
    ideaSlug: row.idea,
    status: row.status as DebateStatus,
    provider: row.provider,
    createdAt: row.createdAt,
    costUsd: row.costUsd,
    live,
  };
}

function headerView(header: DebateHeader): DebateDetail['header'] {
  return {
    id: header.id,
    protocol: header.protocol,
    topic: header.topic,
    ideaSlug: header.ideaSlug,
    agents: header.agents.map((a) => ({
      id: a.id,
      name: a.name,
      persona: a.persona,
      ...(a.topClaim
        ? { topClaim: { statement: a.topClaim.statement, side: a.topClaim.side, confidence: a.topClaim.confidence } }
        : {}),
      ...(a.defaultHorizon ? { defaultHorizon: a.defaultHorizon } : {}),
      interests: a.interests,
      tier: a.tier,
    })),
    config: header.config,
    provider: header.provider,
    seed: header.seed,
    limits: {
      maxMessages: header.limits.maxMessages,
      maxDurationMs: header.limits.maxDurationMs,
      budgetUsd: header.limits.budgetUsd,
      stagnationTurns: header.limits.stagnationTurns,
      concurrency: header.limits.concurrency,
    },
    createdAt: header.createdAt,
  };
}

/** `indexed` is the index's status, for a log that has not recorded one yet (a first run). */
export function debateDetail(
  shown: ReturnType<DebateService['show']>,
  indexed: DebateStatus | null,
  live: boolean,
): DebateDetail {
  return {
    header: headerView(shown.header),
    status: (shown.status as DebateStatus | null) ?? indexed ?? 'running',
    live,
    // The result is checked against the contract's schema by the handler; it is the engine's own shape.
    result: shown.result as DebateDetail['result'],
    transcript: shown.transcript,
    records: shown.records,
    ...(shown.baseline ? { baseline: shown.baseline } : {}),
  };
}
