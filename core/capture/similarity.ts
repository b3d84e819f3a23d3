import { captureTerms } from './terms';

/**
 * The lexical measure of how much of a capture an idea already says, with no model: the share of
 * the capture's distinct terms found in the idea's title, summary and README body, each term
 * weighed by how rare it is in the library (its inverse document frequency):
 *
 *   idf(t)   = ln((N + 1) / (df(t) + 0.5))      N ideas, df(t) of them holding t
 *   score(I) = Σ idf(t) over the capture's terms that I holds / Σ idf(t) over all the capture's terms
 *
 * 1 means every term of the capture is in the idea; 0 that none is. A word every idea uses (a
 * template's heading) weighs almost nothing, and a word no idea holds weighs most, so new matter in
 * a capture pulls its score down. It is asymmetric on purpose: a capture that repeats an idea's
 * summary scores 1 against that idea however long the idea is.
 */

export interface LibraryIdea {
  slug: string;
  title: string;
  summary: string;
  /** The README's body (frontmatter removed). */
  body: string;
}

/** An idea as the measure reads it: its distinct terms. */
export interface IdeaTerms {
  slug: string;
  title: string;
  summary: string;
  terms: ReadonlySet<string>;
}

export interface CandidateScore {
  slug: string;
  title: string;
  /** 0 to 1, three decimals. */
  score: number;
  /** The rarest terms the capture and the idea share (at most five), to say why. */
  shared: string[];
}

export function ideaTerms(idea: LibraryIdea): IdeaTerms {
  return {
    slug: idea.slug,
    title: idea.title,
    summary: idea.summary,
    terms: new Set(captureTerms(`${idea.title}\n${idea.summary}\n${idea.body}`)),
  };
}

/** Every idea scored against the capture's text, best first (ties by slug); none when the text has no terms. */
export function scoreLibrary(text: string, library: readonly IdeaTerms[]): { terms: number; ranked: CandidateScore[] } {
  const terms = [...new Set(captureTerms(text))];
  if (terms.length === 0 || library.length === 0) return { terms: terms.length, ranked: [] };
  const n = library.length;
  const idf = new Map<string, number>();
  for (const term of terms) {
    let df = 0;
    for (const idea of library) if (idea.terms.has(term)) df++;
    idf.set(term, Math.log((n + 1) / (df + 0.5)));
  }
  const total = terms.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0);
  const ranked = library.map((idea) => {
    const shared = terms.filter((t) => idea.terms.has(t));
    const held = shared.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0);
    return {
      slug: idea.slug,
      title: idea.title,
      score: Math.round((held / total) * 1000) / 1000,
      shared: shared.sort((a, b) => (idf.get(b) ?? 0) - (idf.get(a) ?? 0) || (a < b ? -1 : 1)).slice(0, 5),
    };
  });
  ranked.sort((a, b) => b.score - a.score || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return { terms: terms.length, ranked };
}
