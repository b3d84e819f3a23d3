import type { EvaluationEntry } from '../../contract';
import type { EvaluationEvent, EvaluationInput, EvaluationState } from '../../evaluation';
import { advance } from '../../evaluation';
import { confidenceParts } from '../../evaluation/document';
import { evaluationConfidence } from '../../evaluation/figures';
import { isAnswer } from './evaluation-service';

/**
 * Follows one evaluation input by input: its own copy of the state (the fold of the inputs, as
 * every checkpoint is), the entries a view shows (each protocol event with the words it refers to)
 * and the confidences at the end of each round, which the final document does not keep.
 *
 * The same class serves a running evaluation (fed as the driver applies inputs), a stopped one
 * (fed its checkpoint) and a locked one (fed its record's script), so all three read alike.
 */
export class EvaluationTrack {
  readonly state: EvaluationState;
  readonly entries: EvaluationEntry[] = [];
  /** Overall confidence at the end of each round (index = snapshot); null where not seen. */
  readonly confidence: (number | null)[] = [];
  /** Per criterion, its confidence at the end of each round. */
  readonly criterionConfidence: Record<string, (number | null)[]> = {};
  /** Answers applied (the progress count). */
  answers = 0;

  constructor(initial: EvaluationState) {
    this.state = JSON.parse(JSON.stringify(initial)) as EvaluationState;
    // Rounds inherited by a reopened evaluation: their confidences were not recorded.
    for (let i = 0; i < this.state.snapshots.length; i++) this.confidence.push(null);
    for (const c of this.state.criteria) {
      this.criterionConfidence[c.id] = this.state.snapshots.map(() => null);
    }
  }

  /** Applies one input; returns the entries it added. */
  apply(input: EvaluationInput): EvaluationEntry[] {
    const { events } = advance(this.state, input);
    if (isAnswer(input)) this.answers++;
    const added = events.map((event, i) => this.entry(event, this.entries.length + i));
    this.entries.push(...added);
    this.noteSnapshots();
    return added;
  }

  private noteSnapshots(): void {
    while (this.confidence.length < this.state.snapshots.length) {
      this.confidence.push(evaluationConfidence(confidenceParts(this.state)));
      for (const c of this.state.criteria) {
        const list = this.criterionConfidence[c.id] ?? [];
        list.push(this.state.scores[c.id]?.confidence ?? null);
        this.criterionConfidence[c.id] = list;
      }
    }
  }

  private entry(event: EvaluationEvent, seq: number): EvaluationEntry {
    const s = this.state;
    const base: EvaluationEntry = {
      seq,
      type: event.type,
      at: s.clock,
      column: 'transcript',
      round: null,
      agent: null,
      title: '',
      text: '',
      criterion: null,
      severity: null,
      winner: null,
      scoreBefore: null,
      scoreAfter: null,
      challengeId: null,
      dropped: null,
    };
    const name = (id: string) => s.criteria.find((c) => c.id === id)?.name ?? id;
    const challenge = (id: string) => s.challenges.find((c) => c.id === id);
    switch (event.type) {
      case 'phase_changed':
        return { ...base, title: `${event.from} → ${event.to}`, text: event.reason };
      case 'evaluation_started':
        return {
          ...base,
          title: event.scope === 'TARGETED' ? 'Disputed round started' : 'Evaluation started',
          text: `${event.mode} mode${event.supersedes ? `; supersedes ${event.supersedes}` : ''}`,
        };
      case 'scores_carried_over':
        return { ...base, title: 'Scores carried over', text: `${event.criteria} criteria from ${event.from}` };
      case 'initial_scores':
        return {
          ...base,
          column: 'evaluators',
          round: 0,
          agent: `evaluator:${event.category}`,
          title: `First scores: ${s.categories.find((c) => c.id === event.category)?.name ?? event.category}`,
          text: event.scores
            .map((x) => `${name(x.criterion)} ${x.score}/10 (confidence ${x.confidence.toFixed(2)})`)
            .join('\n'),
        };
      case 'round_started':
        return {
          ...base,
          round: event.round,
          title: `Round ${event.round}`,
          text: `${event.personas.join(', ')} challenge${event.focus ? ` ${name(event.focus)} only` : `; targets: ${event.targets.map(name).join(', ')}`}`,
        };
      case 'challenges_received':
        return {
          ...base,
          column: 'redteam',
          round: event.round,
          agent: event.persona,
          title: `${event.persona} raised ${event.count} challenge${event.count === 1 ? '' : 's'}`,
          text: '',
        };
      case 'challenge_accepted':
        return {
          ...base,
          column: 'redteam',
          round: event.challenge.round,
          agent: event.challenge.persona,
          title: name(event.challenge.criterion),
          text: event.challenge.challenge,
          criterion: event.challenge.criterion,
          severity: event.challenge.severity,
          challengeId: event.challenge.id,
        };
      case 'challenge_dropped':
        return {
          ...base,
          column: 'redteam',
          round: event.round,
          agent: event.persona,
          title: `Dropped (${event.reason.replace('_', ' ')}) · ${name(event.criterion)}`,
          text: event.challenge,
          criterion: event.criterion,
          severity: event.severity,
          dropped: event.reason,
        };
      case 'defense_recorded': {
        const c = challenge(event.challengeId);
        return {
          ...base,
          column: 'evaluators',
          round: c?.round ?? null,
          agent: c ? `evaluator:${c.category}` : null,
          title: `Defence of ${name(event.criterion)}`,
          text: c?.defense ?? '',
          criterion: event.criterion,
          challengeId: event.challengeId,
        };
      }
      case 'ruling': {
        const c = challenge(event.challengeId);
        const who = event.winner === 'EVALUATOR' ? 'evaluator' : event.winner === 'RED_TEAM' ? 'red team' : 'draw';
        return {
          ...base,
          round: c?.round ?? null,
          agent: 'arbiter',
          title: `Ruling on ${name(event.criterion)}: ${who}${event.settlesAtRoundEnd ? ` (${event.scoreAdjustment >= 0 ? '+' : ''}${event.scoreAdjustment}, applied at the round’s end)` : event.resolved ? '' : ' (unresolved)'}`,
          text: c?.ruling?.reasoning ?? '',
          criterion: event.criterion,
          severity: c?.severity ?? null,
          winner: event.winner,
          scoreBefore: event.scoreBefore,
          scoreAfter: event.scoreAfter,
          challengeId: event.challengeId,
        };
      }
      case 'round_settled': {
        const moved = event.moves.filter((m) => m.from !== m.to);
        return {
          ...base,
          round: event.round,
          agent: 'arbiter',
          title: `Round ${event.round} settled (passive arbiter)`,
          text:
            moved.length === 0
              ? 'No score moved.'
              : moved
                  .map(
                    (m) =>
                      `${name(m.criterion)} ${m.from} → ${m.to}${Math.abs(m.sum) > Math.abs(m.to - m.from) ? ` (rulings added up to ${m.sum})` : ''}`,
                  )
                  .join('; '),
        };
      }
      case 'synthesis_applied': {
        const moved = event.changes.filter((c) => c.from !== c.to);
        return {
          ...base,
          round: event.round,
          agent: 'synthesis',
          title: `Synthesis of round ${event.round}`,
          text: [
            moved.length === 0
              ? 'No score moved.'
              : moved.map((c) => `${name(c.criterion)} ${c.from} → ${c.to}`).join('; '),
            ...event.newInsights.map((i) => `New insight: ${i}`),
          ].join('\n'),
        };
      }
      case 'round_completed':
        return {
          ...base,
          round: event.round,
          title: `Round ${event.round} ${event.status === 'partial' ? 'cut short' : 'complete'}`,
          text: '',
        };
      case 'round_abandoned':
        return { ...base, round: event.round, title: `Round ${event.round} abandoned`, text: event.reason };
      case 'convergence_checked':
        return {
          ...base,
          round: event.report.round,
          title: event.report.converged
            ? `Converged after round ${event.report.round}`
            : `Not converged after round ${event.report.round}${event.report.decision === 'LOCK' ? ' (round limit)' : ''}`,
          // The first blockers say what holds it open; the checklist of the convergence view has them all.
          text: [
            ...event.report.blockers.slice(0, 3),
            ...(event.report.blockers.length > 3 ? [`… and ${event.report.blockers.length - 3} more`] : []),
          ].join('\n'),
        };
      case 'limit_reached':
        return {
          ...base,
          title: event.limit === 'BUDGET' ? 'The budget ran out' : 'The time limit passed',
          text: `during ${event.phase}`,
        };
      case 'user_approved':
        return { ...base, title: 'Approved by the researcher', text: `during ${event.phase}` };
      case 'round_added':
        return {
          ...base,
          title: 'A round added by the researcher',
          text: `it may now run ${event.roundLimit} rounds (asked during ${event.phase})`,
        };
      case 'narrative_recorded':
        return {
          ...base,
          agent: event.source === 'agent' ? 'synthesis' : null,
          title: 'Narrative written',
          text: event.source === 'agent' ? 'by the synthesis agent' : 'composed from the figures (no call allowed)',
        };
      case 'evaluation_locked':
        return {
          ...base,
          title: `Locked: ${event.reason}`,
          text: `overall ${event.overallScore.toFixed(2)} / 10, confidence ${event.overallConfidence.toFixed(2)}`,
        };
      case 'evaluation_failed':
        return { ...base, title: 'Failed', text: `${event.reason} (during ${event.phase})` };
      case 'evaluation_reset':
        return { ...base, title: `Retry ${event.retry}`, text: 'starting over from the first scores' };
    }
  }
}
