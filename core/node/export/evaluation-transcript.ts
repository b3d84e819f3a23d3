import type { ChannelOutput } from '../../contract';

/**
 * An evaluation's transcript (`transcripts:get` of kind `evaluation`) as Markdown, for export: every
 * entry in order, who spoke and what they said, with the scores and rulings as the transcript view
 * shows them. The frontmatter names it, so the HTML byline and a later reader know what it is.
 */
export function evaluationTranscriptMarkdown(t: ChannelOutput<'transcripts:get'>): string {
  const names = new Map(t.agents.map((a) => [a.id, a.name]));
  const yaml = (text: string) => JSON.stringify(text);
  const lines = [
    '---',
    'kind: evaluation-transcript',
    `evaluation: ${yaml(t.id)}`,
    `idea: ${yaml(t.ideaSlug ?? '')}`,
    `status: ${yaml(t.status)}`,
    `created: ${yaml(t.createdAt)}`,
    '---',
    '',
    `# ${t.title}`,
    '',
    `Evaluation ${t.id} · ${t.status} · ${t.provider ?? 'unknown provider'} · ${t.entries.length} entries`,
  ];
  let round: number | null = null;
  for (const e of t.entries) {
    if (e.round !== null && e.round !== round) {
      round = e.round;
      lines.push('', `## Round ${round}`);
    }
    const who = e.agent === null ? 'Protocol' : (names.get(e.agent) ?? e.agent);
    const score =
      e.scoreBefore !== null && e.scoreAfter !== null && e.scoreBefore !== e.scoreAfter
        ? ` (${e.scoreBefore} → ${e.scoreAfter})`
        : '';
    const marks = [e.severity, e.winner ? `winner: ${e.winner}` : null, e.dropped ? `dropped: ${e.dropped}` : null]
      .filter((m) => m !== null)
      .join(', ');
    lines.push('', `### ${e.seq}. ${who}: ${e.title}${score}${marks ? ` [${marks}]` : ''}`);
    if (e.text.trim() !== '') lines.push('', e.text.trim());
  }
  return `${lines.join('\n')}\n`;
}
