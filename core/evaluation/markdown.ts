import { completeConfig } from './config';
import type { FinalSynthesisDocument } from './document';
import { optionsInWords, optionsOf } from './options';

/**
 * The documents an evaluation writes into the idea's folder, rendered from the locked final synthesis
 * document: `synthesis.md` (the numbers in its frontmatter, the narrative and the trajectory below),
 * `evaluation.md` (every criterion with its score and reasons) and `redteam.md` (every challenge and
 * how it ended). They are for reading; the document's JSON beside them is the record.
 */

const fmt = (n: number | null, digits = 2) => (n === null ? '—' : n.toFixed(digits));
const cell = (text: string) => text.replaceAll('|', '\\|').replace(/\s+/g, ' ').trim();

/**
 * The debate options the evaluation ran under, as a frontmatter block. Only for documents that
 * record them: one locked before the options existed renders exactly as it was written, so the app
 * still knows its own synthesis.md from one the researcher edited.
 */
function optionLines(doc: FinalSynthesisDocument): string[] {
  if (doc.config.arbiter === undefined) return [];
  const o = optionsOf(completeConfig(doc.config));
  return [
    'options:',
    `  redTeamersPerEvaluator: ${o.redTeamersPerEvaluator === null ? 'null' : o.redTeamersPerEvaluator}`,
    `  firstPrinciples: ${o.firstPrinciples}`,
    `  arbiter: ${o.arbiter}`,
    `  adjustmentRange: ${o.adjustmentRange}`,
    `  minConfidence: ${o.minConfidence}`,
  ];
}

function optionsSentence(doc: FinalSynthesisDocument): string {
  const o = optionsOf(completeConfig(doc.config));
  return `Debate options: ${optionsInWords(o)}.`;
}

export function renderSynthesisMd(doc: FinalSynthesisDocument): string {
  const c = doc.composites;
  const front = [
    '---',
    'kind: synthesis',
    `evaluationId: ${JSON.stringify(doc.evaluationId)}`,
    `idea: ${JSON.stringify(doc.ideaId)}`,
    `mode: ${doc.mode}`,
    `scope: ${doc.scope}`,
    `supersedes: ${doc.supersedes === null ? 'null' : JSON.stringify(doc.supersedes)}`,
    `completedAt: ${JSON.stringify(doc.completedAt)}`,
    `rounds: ${doc.rounds}`,
    `locked: true`,
    `lockReason: ${doc.lockReason}`,
    `overallScore: ${c.overallScore}`,
    `overallConfidence: ${c.overallConfidence}`,
    `redTeamSurvivalRate: ${c.redTeamSurvivalRate === null ? 'null' : c.redTeamSurvivalRate}`,
    `convergenceRound: ${c.convergenceRound === null ? 'null' : c.convergenceRound}`,
    `stabilityIndex: ${c.stabilityIndex}`,
    'categoryScores:',
    ...doc.categories.map((k) => `  ${k.category}: ${k.finalScore}`),
    `recommendation: ${doc.narrative.recommendation}`,
    `contentHashAtEvaluation: ${JSON.stringify(doc.contentHashAtEvaluation)}`,
    ...optionLines(doc),
    '---',
  ];
  const n = doc.narrative;
  const list = (items: readonly string[]) => (items.length ? items.map((i) => `- ${i}`) : ['- none']);
  const body = [
    `# Synthesis: ${doc.ideaTitle}`,
    '',
    `**${n.recommendation}** · overall ${fmt(c.overallScore)} / 10 · confidence ${fmt(c.overallConfidence)} · red-team survival ${c.redTeamSurvivalRate === null ? '—' : `${Math.round(c.redTeamSurvivalRate * 100)}%`} · locked by ${doc.lockReason} after ${doc.rounds} round${doc.rounds === 1 ? '' : 's'} (${doc.mode} mode${doc.scope === 'TARGETED' && doc.dispute ? `, a dispute of ${doc.dispute.criterion}` : ''})`,
    '',
    ...(doc.config.arbiter === undefined ? [] : [optionsSentence(doc), '']),
    ...(doc.supersedes
      ? [`This evaluation supersedes \`${doc.supersedes}\`, which stays readable in \`evaluations/\`.`, '']
      : []),
    '## Executive summary',
    '',
    n.executiveSummary,
    '',
    `**Why ${n.recommendation.toLowerCase()}:** ${n.recommendationReasoning}`,
    '',
    '## Key strengths',
    ...list(n.keyStrengths),
    '',
    '## Key weaknesses',
    ...list(n.keyWeaknesses),
    '',
    '## Critical assumptions',
    ...list(n.criticalAssumptions),
    '',
    '## Unresolved questions',
    ...list(n.unresolvedQuestions),
    '',
    '## Scores by category',
    '',
    '| category | weight | initial | final |',
    '| --- | --- | --- | --- |',
    ...doc.categories.map((k) => `| ${k.name} | ${k.weight} | ${fmt(k.initialScore)} | ${fmt(k.finalScore)} |`),
    '',
    '## Trajectory',
    '',
    `| criterion | ${doc.auditTrail.overallTrajectory.map((_, i) => (i === 0 ? 'initial' : `round ${i}`)).join(' | ')} |`,
    `| --- | ${doc.auditTrail.overallTrajectory.map(() => '---').join(' | ')} |`,
    ...doc.auditTrail.scoreTrajectory.map((t) => `| ${t.criterion} | ${t.scores.join(' | ')} |`),
    `| **overall** | ${doc.auditTrail.overallTrajectory.map((s) => fmt(s)).join(' | ')} |`,
    '',
    '## Convergence',
    '',
    `- stability: ${doc.convergence.conditions.stability.met ? 'met' : 'not met'} (largest move ${doc.convergence.conditions.stability.maxDelta}, sum ${doc.convergence.conditions.stability.aggregateDelta})`,
    `- confidence: ${doc.convergence.conditions.confidence.met ? 'met' : 'not met'} (lowest ${fmt(doc.convergence.conditions.confidence.lowest)})`,
    `- resolution: ${doc.convergence.conditions.resolution.met ? 'met' : 'not met'} (critical ${doc.convergence.conditions.resolution.critical.resolved}/${doc.convergence.conditions.resolution.critical.total}, major ${doc.convergence.conditions.resolution.major.resolved}/${doc.convergence.conditions.resolution.major.total})`,
    `- saturation: ${doc.convergence.conditions.saturation.met ? 'met' : 'not met'} (${doc.convergence.conditions.saturation.newInsights} new insights, ${doc.convergence.conditions.saturation.repeats} repeats of ${doc.convergence.conditions.saturation.raised})`,
    '',
    '## Reopening',
    '',
    ...doc.reopenConditions.map((r) => `- ${r}`),
    '',
  ];
  return `${front.join('\n')}\n${body.join('\n')}`;
}

export function renderEvaluationMd(doc: FinalSynthesisDocument): string {
  const lines = [
    '---',
    'kind: evaluation',
    `evaluationId: ${JSON.stringify(doc.evaluationId)}`,
    'generated: true',
    '---',
    `# Evaluation: ${doc.ideaTitle}`,
    '',
    `Written by Crucible from evaluation \`${doc.evaluationId}\` (${doc.completedAt}). It is regenerated by the next evaluation; notes of your own belong in \`notes/\`.`,
    '',
  ];
  for (const category of doc.categories) {
    lines.push(
      `## ${category.name} — ${fmt(category.finalScore)} (weight ${category.weight})`,
      '',
      '| criterion | initial | final | confidence | challenged | defended |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const s of doc.scores.filter((x) => x.category === category.category)) {
      lines.push(
        `| ${s.name}${s.critical ? ' (critical)' : ''} | ${s.initialScore} | ${s.finalScore} | ${fmt(s.confidence)} | ${s.challenged} | ${s.defended} |`,
      );
    }
    const open = doc.scores
      .filter((x) => x.category === category.category)
      .flatMap((x) => x.openQuestions.map((q) => `- ${x.name}: ${q}`));
    lines.push('', ...(open.length ? ['Open questions:', ...open, ''] : []));
  }
  return `${lines.join('\n')}\n`;
}

export function renderRedteamMd(doc: FinalSynthesisDocument): string {
  const lines = [
    '---',
    'kind: redteam',
    `evaluationId: ${JSON.stringify(doc.evaluationId)}`,
    'generated: true',
    '---',
    `# Red team: ${doc.ideaTitle}`,
    '',
    `${doc.auditTrail.conflicts.length} challenge(s) reached the arbiter; red-team survival ${doc.composites.redTeamSurvivalRate === null ? '—' : `${Math.round(doc.composites.redTeamSurvivalRate * 100)}%`}.`,
    '',
  ];
  for (const c of doc.auditTrail.conflicts) {
    const ruling = c.ruling
      ? `${c.ruling.winner}${c.ruling.scoreAdjustment ? ` (${c.ruling.scoreAdjustment > 0 ? '+' : ''}${c.ruling.scoreAdjustment})` : ''}`
      : 'no ruling';
    lines.push(
      `## Round ${c.round} · ${c.persona} · ${c.criterion} · ${c.severity}`,
      '',
      `**Challenge:** ${c.challenge}`,
      '',
      `**Defence:** ${c.defense ?? '—'}`,
      '',
      `**Ruling:** ${ruling}${c.ruling?.firstPrinciplesBonus ? ' · first-principles bonus' : ''}${c.ruling?.fallacies.length ? ` · fallacies: ${c.ruling.fallacies.join(', ')}` : ''} · score ${c.scoreBefore ?? '—'} → ${c.scoreAfter ?? '—'} · ${c.resolved ? 'resolved' : 'unresolved'}`,
      '',
      ...(c.ruling ? [`> ${cell(c.ruling.reasoning)}`, ''] : []),
    );
  }
  return `${lines.join('\n')}\n`;
}
