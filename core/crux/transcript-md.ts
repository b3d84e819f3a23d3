import type { Conformity, PositionChange } from './conformity';
import type { CruxRelation, CruxReview } from './record-schemas';
import type { CruxResult } from './result';
import type { CruxState, TranscriptEntry } from './state';

/**
 * The readable transcript of a crux debate (`debates/<id>.md`), written beside its JSONL log. It is
 * for people: threads in order, every message with its id (so notes can cite `m12`), refused moves
 * and moderator interventions marked, then the cruxes that came out.
 */
export interface TranscriptMeta {
  id: string;
  provider: string;
  seed: number | null;
  status: string;
  reason: string | null;
  notes: readonly string[];
  createdAt: string;
}

function line(entry: TranscriptEntry, names: ReadonlyMap<string, string>): string {
  if (entry.author === null) {
    return `> **moderator**${entry.intervention ? ` · ${entry.intervention}` : ''}${entry.target ? ` → ${names.get(entry.target) ?? entry.target}` : ''} \`${entry.id}\`\n> ${entry.content}`;
  }
  const who = names.get(entry.author) ?? entry.author;
  const reply = entry.replyTo ? ` ↩ \`${entry.replyTo}\`` : '';
  const meta = entry.meta ?? {};
  const details: string[] = [];
  if (typeof meta.question === 'string') details.push(`question: ${meta.question}`);
  if (typeof meta.side === 'string') details.push(`side: ${meta.side}${typeof meta.confidence === 'number' ? ` (${meta.confidence})` : ''}${typeof meta.horizon === 'string' ? `, ${meta.horizon}` : ''}`);
  const f = meta.falsifier as { metric?: string; threshold?: string; deadline?: string } | undefined;
  if (f && typeof f === 'object') details.push(`falsifier: ${f.metric ?? '?'} — ${f.threshold ?? '?'} by ${f.deadline ?? '?'}`);
  if (typeof meta.steelmanTarget === 'string') details.push(`steelman of ${names.get(meta.steelmanTarget) ?? meta.steelmanTarget}`);
  if (typeof meta.claimRepresented === 'string') details.push(`their claim: ${meta.claimRepresented}`);
  if (typeof meta.strongestReason === 'string') details.push(`strongest reason: ${meta.strongestReason}`);
  const rf = meta.falsifierRepresented as { metric?: string; threshold?: string; deadline?: string } | undefined;
  if (rf && typeof rf === 'object') details.push(`would change their mind: ${rf.metric ?? '?'} — ${rf.threshold ?? '?'} by ${rf.deadline ?? '?'}`);
  if (typeof meta.steelmanGrade === 'string') details.push(`grade: ${meta.steelmanGrade}`);
  if (typeof meta.corrections === 'string') details.push(`missed: ${meta.corrections}`);
  if (typeof meta.concededProposition === 'string') details.push(`concedes: ${meta.concededProposition}`);
  if (typeof meta.cruxChallenge === 'string') details.push(`challenges the crux: ${meta.cruxChallenge}`);
  const extra = details.length > 0 ? `\n  ${details.map((d) => `_${d}_`).join(' · ')}` : '';
  const head = `- \`${entry.id}\` **${who}** · ${entry.move}${reply}`;
  if (!entry.accepted) return `${head} · ~~refused: ${entry.blockedReason}~~${entry.blockedDetail ? ` (${entry.blockedDetail})` : ''}\n  ${entry.content}`;
  return `${head}\n  ${entry.content}${extra}`;
}

export function renderTranscript(state: CruxState, result: CruxResult, meta: TranscriptMeta): string {
  const names = new Map(state.agents.map((a) => [a.id, a.name]));
  const simulated = meta.provider === 'simulated';
  const out: string[] = [
    '---',
    `debate: ${JSON.stringify(meta.id)}`,
    'protocol: crux',
    `topic: ${JSON.stringify(state.topic)}`,
    `provider: ${meta.provider}`,
    ...(meta.seed !== null ? [`seed: ${meta.seed}`] : []),
    `status: ${meta.status}`,
    `regime: ${result.regime}`,
    `created: ${meta.createdAt}`,
    '---',
    `# Crux debate: ${state.topic}`,
    '',
  ];
  if (simulated) {
    out.push(`> **Simulated debate.** Every message below was produced offline by the simulator (seed ${meta.seed}), not by a model. It shows how the protocol works; its content is not evidence of anything.`, '');
  }
  out.push(`Status: **${meta.status}**${meta.reason ? ` (${meta.reason})` : ''} · regime: **${result.regime}** · ${result.systemMetrics.messagesTotal} messages, ${result.systemMetrics.messagesBlocked} refused · cost $${result.systemMetrics.costUsd.toFixed(4)}`, '');
  for (const note of meta.notes) out.push(`> ${note}`, '');
  out.push('Agents: ' + state.agents.map((a) => `**${a.name}** (\`${a.id}\`${a.topClaim ? `, ${a.topClaim.side}` : ''})`).join(', '), '');

  for (const thread of state.threads) {
    const summary = result.threads.find((t) => t.id === thread.id);
    const merged = thread.mergedInto ? ` · merged into ${thread.mergedInto} (the same question)` : '';
    out.push(`## ${thread.id}: ${thread.topic}`, '', `Status: **${thread.status}**${merged} · binary question: ${thread.binaryQuestion ?? '—'}`, '');
    for (const entry of state.transcript.filter((m) => m.thread === thread.id)) out.push(line(entry, names), '');
    const crux = summary?.crux;
    if (crux) {
      out.push(`### Crux${result.primaryCrux === thread.id ? ' (primary)' : ''}: ${crux.question}`, '');
      out.push(`DCG ${crux.dcg.score} (coverage ${crux.dcg.coverage}, polarity ${crux.dcg.polarity}, impact ${crux.dcg.impact}) · ${crux.validated ? 'validated' : `not validated: ${crux.validationFailures.join(', ')}`}`, '');
      out.push('| agent | side | confidence | falsifier | would flip |', '| --- | --- | --- | --- | --- |');
      for (const [agent, p] of Object.entries(crux.positions)) {
        const f = p.falsifier ? `${p.falsifier.metric} — ${p.falsifier.threshold} by ${p.falsifier.deadline}` : '—';
        out.push(`| ${names.get(agent) ?? agent} | ${p.side} | ${p.confidence} | ${f.replaceAll('|', '\\|')} | ${crux.counterfactual[agent]?.wouldFlip ? 'yes' : 'no'} |`);
      }
      out.push('', 'Resolution criteria:', ...crux.resolutionCriteria.map((c) => `- ${c}`), '');
      if (crux.history) out.push('History:', ...crux.history.map((r) => reviewLine(r, names)), '');
    }
  }
  const conformity = result.conformity;
  out.push('## Outcome', '', `Regime: **${result.regime}**${result.primaryCrux ? ` · primary crux: ${result.primaryCrux}` : ''}${conformity?.label ? ` · **${conformity.label}**` : ''}`, '');
  if (result.confidence === 'LOW') {
    out.push(`Confidence: **LOW** — the debate stopped${state.stoppedBy ? ` (${state.stoppedBy})` : ''} with threads still open; what they hold is work in progress.`, '');
  }
  if (result.commonGround.length > 0) out.push('Common ground:', ...result.commonGround.map((c) => `- ${c.statement} _(${c.type})_`), '');
  if (result.coalitions.length > 0) {
    out.push('Coalitions:', ...result.coalitions.map((c) => `- ${c.label}: ${c.members.map((m) => names.get(m) ?? m).join(', ')}`), '');
  }
  if (conformity) out.push(...conformityLines(conformity, names));
  if (result.relations) out.push(...relationLines(result.relations));
  return `${out.join('\n')}\n`;
}

/** One review of a crux: who challenged it and why, what the crystallizer answered, what it was. */
function reviewLine(r: CruxReview, names: ReadonlyMap<string, string>): string {
  const answer = r.outcome === 'REEXTRACTED' ? 're-extracted' : `needs clarification: ${r.note}`;
  const was = r.before.validated ? 'validated' : `not validated: ${r.before.validationFailures.join(', ')}`;
  return `- \`${r.challenge.messageId}\` ${names.get(r.challenge.agent) ?? r.challenge.agent} challenged it as ${r.challenge.reason} → ${answer}; it was “${r.before.question}” (${was})`;
}

function stanceText(stance: PositionChange['from']): string {
  if (!stance) return 'no side';
  return `${stance.side}${stance.confidence === undefined ? '' : ` (${stance.confidence})`}`;
}

/** Each position change with what preceded it, and the counts a reader weighs agreement by. */
function conformityLines(c: Conformity, names: ReadonlyMap<string, string>): string[] {
  const basis = (change: PositionChange): string =>
    change.basis === 'argument'
      ? `after ${change.arguments.map((id) => `\`${id}\``).join(', ')}`
      : change.basis === 'majority'
        ? `no new argument aimed at them; toward the majority (${change.majority})`
        : 'no new argument aimed at them, no majority to follow';
  const move = (change: PositionChange): string =>
    change.kind === 'concession'
      ? `concedes, keeps ${stanceText(change.to)}`
      : `${stanceText(change.from)} → ${stanceText(change.to)}`;
  const lines = [
    `Position changes: ${c.changes.length} (${c.afterArgument} after a new argument aimed at the agent, ${c.majorityAdoptions} following the majority, ${c.unexplained} neither) · majority-adoption rate ${Math.round(c.majorityAdoptionRate * 100)}% · dissent: ${c.dissent.initial} in the smaller camp at the first commitments, ${c.dissent.final} at the end`,
    ...c.changes.map(
      (change) =>
        `- \`${change.messageId}\` ${names.get(change.agent) ?? change.agent} · ${change.move}: ${move(change)} · ${basis(change)}`,
    ),
    '',
  ];
  if (c.label) {
    lines.push(
      `**Possibly conformity**: the agreement in ${c.conformityThreads.join(', ')} came mostly from agents taking the majority's side without a new argument aimed at them.`,
      '',
    );
  }
  return lines;
}

/** What the cross-thread analysis found between pairs of cruxes, each with its confidence and verdict. */
function relationLines(relations: readonly CruxRelation[]): string[] {
  const what = (r: CruxRelation): string =>
    r.relation === 'DUPLICATE'
      ? `${r.b} is a duplicate of ${r.a}`
      : r.relation === 'CONTRADICTS'
        ? `${r.a} and ${r.b} contradict each other`
        : r.relation === 'NONE'
          ? `${r.a} and ${r.b}: no relation`
          : `${r.to} rests on ${r.from} (${r.relation})`;
  const verdict = (r: CruxRelation): string =>
    r.status === 'DISMISSED'
      ? `dismissed: ${r.note}`
      : r.status === 'PROPOSED'
        ? 'waiting for the second call'
        : `${r.status === 'CONFIRMED' ? 'confirmed' : 'rejected'} by a second call: ${r.note}`;
  return [
    'Relations between cruxes:',
    ...relations.map((r) => `- ${what(r)} · confidence ${r.confidence} · ${verdict(r)}${r.sketch ? `\n  ${r.sketch}` : ''}`),
    '',
  ];
}
