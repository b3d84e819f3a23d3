/**
 * Round 0 of an arena: the brief every agent reads, assembled from what the workspace knows about the
 * question (no model call). It is put together once, when the arena starts, and kept in the run's
 * header, so a resumed arena reads the same words.
 */

export interface ArenaContextInput {
  /**
   * The idea the arena is about, or a tournament arena's contestant ideas, each with the name of the
   * agent championing it; empty for a topic.
   */
  ideas: { slug: string; title: string; summary: string; readme: string; champion?: string }[];
  related: { slug: string; title: string; type: string; reason: string | null; summary: string }[];
  /** Open cruxes from the ledger that mention the idea. */
  cruxes: { question: string; debateTopic: string; nextDeadline: string | null }[];
  /** Resolved falsifiers from the ledger that mention the idea. */
  falsifiers: { agentName: string; metric: string; threshold: string; outcome: string; resolvedOn: string }[];
  /** Earlier completed arenas on the same idea (or topic, or pair of ideas), most recent first. */
  past: { question: string; outcome: string; winner: string; title: string; summary: string }[];
}

const SCOPE =
  'This brief holds only what the workspace knows: the idea, its related ideas, the ledger and earlier arenas. External sources such as trending topics are out of scope; say so rather than guess at them.';

export function arenaContext(input: ArenaContextInput): string {
  const parts = [SCOPE];
  for (const { slug, title, summary, readme, champion } of input.ideas) {
    const heading =
      champion === undefined ? `The idea: ${title}` : `Contestant idea: ${title} [${slug}], championed by ${champion}`;
    parts.push(
      `## ${heading}\n\nSummary: ${summary.trim() || '(no summary given)'}\n\nThe researcher's README, verbatim (quote it when you rely on it):\n\n<idea-readme>\n${readme.trim()}\n</idea-readme>`,
    );
  }
  if (input.related.length > 0)
    parts.push(
      `## Related ideas\n\n${input.related
        .map(
          (r) => `- ${r.title} [${r.slug}] (${r.type}${r.reason ? `: ${r.reason}` : ''}): ${r.summary.trim() || '—'}`,
        )
        .join('\n')}`,
    );
  if (input.cruxes.length > 0)
    parts.push(
      `## Open cruxes from the ledger\n\n${input.cruxes
        .map(
          (c) =>
            `- ${c.question} (from the debate "${c.debateTopic}"${c.nextDeadline ? `, next deadline ${c.nextDeadline}` : ''})`,
        )
        .join('\n')}`,
    );
  if (input.falsifiers.length > 0)
    parts.push(
      `## Resolved falsifiers from the ledger\n\n${input.falsifiers
        .map((f) => `- ${f.agentName}: ${f.metric} ${f.threshold} — ${f.outcome} on ${f.resolvedOn}`)
        .join('\n')}`,
    );
  if (input.past.length > 0)
    parts.push(
      `## Earlier arenas on this question\n\n${input.past
        .map((p) => `- "${p.question}": ${p.outcome}, ${p.winner} first with "${p.title}" — ${p.summary}`)
        .join('\n')}`,
    );
  return parts.join('\n\n');
}
