import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { arenaEntry } from '../../../arena/live/protocol';
import { lastJudgment } from '../../../arena/state';
import { type ArenaTournament, arenaTournamentSchema, tournamentPairings } from '../../../arena/tournament';
import type { RunEntry, TournamentSchedule } from '../../../contract';
import { UserError, type Workspace } from '../../workspace/workspace';
import { readArena } from './arena-log';

/** What one arena log's header says of the tournament it belongs to (null: an arena on its own). */
interface Meeting {
  id: string;
  tournament: ArenaTournament | null;
}

const CHUNK = 64 * 1024;

/** The first line of a file, read a chunk at a time (a log's header carries the brief: it can be long). */
function firstLine(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const parts: Buffer[] = [];
    let position = 0;
    for (;;) {
      const buffer = Buffer.alloc(CHUNK);
      const read = readSync(fd, buffer, 0, CHUNK, position);
      const end = buffer.subarray(0, read).indexOf(10);
      if (end >= 0 || read === 0) {
        parts.push(buffer.subarray(0, end >= 0 ? end : read));
        return Buffer.concat(parts).toString('utf8');
      }
      parts.push(buffer.subarray(0, read));
      position += read;
    }
  } finally {
    closeSync(fd);
  }
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

/**
 * A tournament's schedule read back from the arenas' logs, with what this app knows of the ones it
 * drives: the tournament itself is written nowhere else. A tournament's arenas are about no single
 * idea, so their logs are in the workspace's `arenas/` folder; which tournament a log belongs to is
 * in its header, which never changes, so each header is read once per app (a poll while a meeting
 * runs reads only the headers of logs new since the last).
 */
export class TournamentSchedules {
  private readonly headers = new Map<string, Meeting | null>();

  constructor(private readonly ws: Workspace) {}

  private meetingsOf(id: string): { id: string; tournament: ArenaTournament }[] {
    const folder = join(this.ws.root, arenaEntry.folder);
    let files: string[] = [];
    try {
      files = readdirSync(folder).filter((f) => f.endsWith('.jsonl'));
    } catch {
      files = [];
    }
    const found: { id: string; tournament: ArenaTournament }[] = [];
    for (const file of files) {
      let meeting = this.headers.get(file);
      if (meeting === undefined) {
        meeting = this.header(join(folder, file));
        // A log whose header is still being written is read again next time.
        if (meeting !== null) this.headers.set(file, meeting);
      }
      if (meeting?.tournament?.id === id) found.push({ id: meeting.id, tournament: meeting.tournament });
    }
    return found;
  }

  private header(path: string): Meeting | null {
    try {
      const first = JSON.parse(firstLine(path)) as {
        type?: string;
        header?: { id?: string; protocol?: string; setup?: { tournament?: unknown } };
      };
      if (first.type !== 'run_created' || first.header?.protocol !== arenaEntry.name || !first.header.id) return null;
      const t = arenaTournamentSchema.nullable().safeParse(first.header.setup?.tournament ?? null);
      return { id: first.header.id, tournament: t.success ? t.data : null };
    } catch {
      return null;
    }
  }

  /**
   * Every meeting of tournament `id` in schedule order: its arena once started (the one this app
   * drives with the status it holds, else as its log has it), the outcome, the winning idea and the
   * judge's scores by idea.
   */
  schedule(id: string, live: (run: string) => RunEntry | null, playing: boolean): TournamentSchedule {
    const meetings = this.meetingsOf(id);
    const first = meetings[0]?.tournament;
    if (!first) throw new UserError(`no arena of a tournament "${id}" in this workspace`);
    const ideas = first.ideas.map((i) => ({ slug: i.slug, title: i.title, champion: i.champion }));
    const slugOf = new Map(ideas.map((i) => [i.champion, i.slug]));
    const rows = tournamentPairings(ideas.map((i) => i.slug)).map((pairing, k) => {
      // Two arenas of one meeting (a start retried) cannot happen in one app; the later one counts.
      const arena = meetings.filter((m) => m.tournament.pairing.join() === pairing.join()).at(-1);
      const base = {
        index: k + 1,
        pairing,
        run: null,
        status: null,
        live: false,
        outcome: null,
        winner: null,
        scores: null,
        costUsd: 0,
      };
      if (!arena) return base;
      const read = readArena(this.ws, arena.id);
      const held = live(arena.id);
      const judgment = lastJudgment(read.state);
      return {
        ...base,
        run: arena.id,
        status: held?.status ?? read.status,
        live: held?.live ?? false,
        outcome: read.state.outcome,
        winner: judgment ? (slugOf.get(judgment.ranking[0] ?? '') ?? null) : null,
        scores: judgment
          ? Object.fromEntries(
              Object.entries(judgment.scores).map(([agent, s]) => [slugOf.get(agent) ?? agent, s.overall]),
            )
          : null,
        costUsd: round(held?.costUsd ?? read.costUsd),
      };
    });
    return {
      id,
      ideas,
      meetings: rows,
      playing,
      costUsd: round(rows.reduce((s, r) => s + r.costUsd, 0)),
    };
  }
}
