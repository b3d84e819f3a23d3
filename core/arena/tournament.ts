import { z } from 'zod';
import { pairsOf } from './similarity';

/**
 * Tournament mode (ARENA-PROTOCOL.md, "Ratings"): the contestants are ideas, each championed by one
 * debater persona for the whole tournament, and every pair of ideas meets once in a head-to-head
 * arena of their two champions (a round robin). The judge's scores of such an arena are the ideas'
 * game, so it moves the ideas' Elo (a table of its own) and not the personas'.
 */

/** At most this many ideas: 8 ideas are 28 head-to-head arenas. */
export const MAX_TOURNAMENT_IDEAS = 8;

export const tournamentIdeaSchema = z.strictObject({
  slug: z.string().min(1),
  title: z.string().min(1),
  /** The debater persona that argues for it in every arena of the tournament. */
  champion: z.string().min(1),
});
export type TournamentIdea = z.output<typeof tournamentIdeaSchema>;

/** What an arena of a tournament keeps in its setup: the whole tournament, and which meeting it is. */
export const arenaTournamentSchema = z
  .strictObject({
    /** Shared by every arena of one tournament. */
    id: z.string().regex(/^[a-z0-9]+$/, 'a tournament id is lower-case letters and digits'),
    ideas: z.array(tournamentIdeaSchema).min(2).max(MAX_TOURNAMENT_IDEAS),
    /** The two ideas that meet here (slugs), in the order of `ideas`. */
    pairing: z.tuple([z.string(), z.string()]),
    /** Its place in the schedule (1-based) and the schedule's length. */
    index: z.number().int().min(1),
    of: z.number().int().min(1),
  })
  .superRefine((t, ctx) => {
    const slugs = t.ideas.map((i) => i.slug);
    const champions = t.ideas.map((i) => i.champion);
    slugs.forEach((s, i) => {
      if (slugs.indexOf(s) < i)
        ctx.addIssue({ code: 'custom', path: ['ideas', i, 'slug'], message: `"${s}" is listed twice` });
    });
    champions.forEach((c, i) => {
      if (champions.indexOf(c) < i)
        ctx.addIssue({ code: 'custom', path: ['ideas', i, 'champion'], message: `"${c}" champions two ideas` });
    });
    t.pairing.forEach((s, i) => {
      if (!slugs.includes(s))
        ctx.addIssue({ code: 'custom', path: ['pairing', i], message: `"${s}" is not an idea of the tournament` });
    });
    if (t.pairing[0] === t.pairing[1])
      ctx.addIssue({ code: 'custom', path: ['pairing'], message: 'an idea cannot meet itself' });
    if (t.index > t.of) ctx.addIssue({ code: 'custom', path: ['index'], message: `arena ${t.index} of ${t.of}` });
  });
export type ArenaTournament = z.output<typeof arenaTournamentSchema>;

/**
 * The round robin: every pair of ideas once, in the order the ideas were given ((a,b), (a,c), (b,c)
 * for a, b, c). Each idea meets every other exactly once, so no idea's rating rests on whom it
 * happened to be drawn against.
 */
export function tournamentPairings(slugs: readonly string[]): [string, string][] {
  return pairsOf(slugs);
}

/** The champion of each idea of this arena, by agent id: the arena's agents stand for these ideas. */
export function championsOf(t: ArenaTournament): Record<string, string> {
  return Object.fromEntries(
    t.ideas.filter((i) => t.pairing.includes(i.slug)).map((i): [string, string] => [i.champion, i.slug]),
  );
}

/** The agents of a pairing's arena, in the pairing's order. */
export function pairingAgents(ideas: readonly TournamentIdea[], pairing: readonly [string, string]): string[] {
  return pairing.map((slug) => {
    const idea = ideas.find((i) => i.slug === slug);
    if (!idea) throw new Error(`"${slug}" is not an idea of the tournament`);
    return idea.champion;
  });
}

/** The question of a head-to-head arena. */
export function tournamentQuestion(a: TournamentIdea, b: TournamentIdea): string {
  return `Which idea should the researcher pursue first: "${a.title}" or "${b.title}"? Each agent champions one of them.`;
}

/** What a champion is told beside its persona: which idea it stands for, and to argue it honestly. */
export function championPrompt(idea: TournamentIdea, other: TournamentIdea): string {
  return `In this arena you champion the idea "${idea.title}" [${idea.slug}] against "${other.title}" [${other.slug}]. Make the strongest honest case that the researcher should pursue your idea first: your proposal is how to pursue it and why it beats the other. Concede what the evidence does not support; the judge scores the case, not the volume.`;
}
