import {
  type EvaluationEntry,
  type EvaluationSummary,
  evaluationEntryMove,
  type TranscriptHit,
  type TranscriptSummary,
} from '../../../contract';
import type { EvaluationReader, EvaluationSource } from '../evaluation-reader';
import { snippetAround } from './transcripts';

/**
 * Evaluations as transcripts: an evaluation's transcript is its entries (first scores, challenges,
 * defences, rulings, synthesis, the protocol's notes), read through the same EvaluationReader as
 * `evaluations:get`, so the reader, the search and the live view show the same things. An entry's
 * place in the transcript is its `seq` (the `m` of `#/transcript/evaluation/<id>?m=<seq>`).
 *
 * The search scans the entries in memory: the index holds none of them (they are rebuilt from each
 * evaluation's script, which the folder keeps), and a hundred evaluations of about a hundred entries
 * each are scanned in milliseconds. A locked record's entries are replayed from its script once and
 * then kept in `.crucible/evaluation-entries/` (EvaluationEntriesCache), so a search after a restart
 * does not replay a hundred scripts; their count is kept in the record's brief, so a list does not
 * read them at all.
 */
export class EvaluationTranscripts {
  constructor(
    private readonly reader: EvaluationReader,
    private readonly categories: () => readonly { id: string; name: string }[],
  ) {}

  /** Who an entry's `agent` is, in words. */
  agentName(agent: string): string {
    if (agent.startsWith('evaluator:')) {
      const id = agent.slice('evaluator:'.length);
      return `${this.categories().find((c) => c.id === id)?.name ?? id} evaluator`;
    }
    if (agent === 'arbiter') return 'Arbiter';
    if (agent === 'synthesis') return 'Synthesis';
    return `${agent.charAt(0).toUpperCase()}${agent.slice(1)} (red team)`;
  }

  /** Every evaluation this app can read, newest first, with its entries on demand. */
  sources(): EvaluationSource[] {
    return this.reader.all();
  }

  summaryOf(e: EvaluationSummary, entries: number | null): TranscriptSummary {
    return {
      kind: 'evaluation',
      id: e.id,
      title: `Evaluation of ${e.ideaTitle} (${e.mode}${e.scope === 'TARGETED' ? ', dispute' : ''})`,
      ideaSlug: e.slug,
      status: e.status,
      live: e.live,
      provider: e.provider,
      createdAt: e.startedAt,
      messages: entries,
    };
  }

  /**
   * The row made for a locked record's summary with its count (the reader keeps both while the
   * record's brief and its idea's state stay the same): the same row object, so an unchanged list
   * is told apart from a changed one row by row, without serializing 10,000 rows.
   */
  private readonly rows = new WeakMap<EvaluationSummary, TranscriptSummary>();

  /**
   * The transcript list's rows. A locked record's count of entries is kept in its brief (on disk
   * between starts); one not counted yet is counted now while `deadline` allows, else shown as
   * null (being counted) and counted in the background.
   */
  list(deadline = this.reader.deadline()): TranscriptSummary[] {
    return this.reader.all(undefined, deadline).map((s) => {
      if (!s.brief) return this.summaryOf(s.summary, s.entries().length);
      const row = this.rows.get(s.summary);
      if (row && row.messages !== null) return row;
      const made = this.summaryOf(s.summary, this.reader.count(s, deadline));
      this.rows.set(s.summary, made);
      return made;
    });
  }

  /** One evaluation's transcript: its summary, who speaks, its columns and its entries. */
  get(id: string) {
    const { summary, entries } = this.reader.entries(id);
    const agents = [...new Set(entries.flatMap((e) => (e.agent ? [e.agent] : [])))].map((a) => ({
      id: a,
      name: this.agentName(a),
    }));
    return {
      ...this.summaryOf(summary, entries.length),
      agents,
      threads: [
        { id: 'evaluators', topic: 'Evaluators' },
        { id: 'transcript', topic: 'Transcript' },
        { id: 'redteam', topic: 'Red team' },
      ],
      transcript: [],
      entries: [...entries],
    };
  }

  /**
   * One evaluation's entries matching the filters (the same rules as a debate's messages: every
   * word in the entry's title or text, agent by id or part of its name, kind of entry, days), in
   * order; `hit` is called for each.
   */
  scan(
    source: EvaluationSource,
    filter: {
      words: readonly string[];
      who?: string | undefined;
      move?: string | undefined;
      from?: string | undefined;
      to?: string | undefined;
    },
    hit: (make: () => TranscriptHit) => void,
  ): void {
    const { words, who, move, from, to } = filter;
    const e = source.summary;
    const entries = source.entries();
    const title = this.summaryOf(e, entries.length).title;
    for (const entry of entries) {
      const at = entry.at ?? e.startedAt;
      const day = at.slice(0, 10);
      if (from !== undefined && day < from) continue;
      if (to !== undefined && day > to) continue;
      const kind = evaluationEntryMove(entry.type);
      if (move !== undefined && kind !== move) continue;
      if (who !== undefined) {
        if (entry.agent === null) continue;
        if (entry.agent.toLocaleLowerCase() !== who && !this.agentName(entry.agent).toLocaleLowerCase().includes(who))
          continue;
      }
      const text = searchText(entry);
      if (words.length > 0) {
        const lower = text.toLocaleLowerCase();
        if (!words.every((w) => lower.includes(w))) continue;
      }
      hit(() => ({
        kind: 'evaluation',
        id: e.id,
        title,
        ideaSlug: e.slug,
        index: entry.seq,
        messageId: entry.title,
        thread: entry.column,
        agent: entry.agent,
        agentName: entry.agent === null ? null : this.agentName(entry.agent),
        move: kind,
        at,
        snippet: snippetAround(text, words),
      }));
    }
  }
}

/** What a search looks in: the entry's title (criterion, who won) and its text. */
function searchText(entry: EvaluationEntry): string {
  return entry.text === '' ? entry.title : `${entry.title}: ${entry.text}`;
}
