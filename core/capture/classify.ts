import { type CaptureClassification, decideLexically, SHOWN_CANDIDATES } from './decision';
import { type CandidateScore, type IdeaTerms, scoreLibrary } from './similarity';

/** An idea as a capture is placed against it: its terms, and the identities of the texts captured into it. */
export interface PlacedIdea extends IdeaTerms {
  identities: readonly string[];
}

export interface LexicalPlacement {
  classification: CaptureClassification;
  /** The whole library scored against the capture, best first. */
  ranked: CandidateScore[];
  /** A model may be asked: the library is not empty and the capture is not a duplicate. */
  askable: boolean;
}

/**
 * The classification without a model: a capture whose identity an idea records is that idea's
 * (EXISTING, and a duplicate: there is nothing to add); otherwise the lexical rule decides.
 */
export function classifyLexically(text: string, library: readonly PlacedIdea[], identity: string): LexicalPlacement {
  const { terms, ranked } = scoreLibrary(text, library);
  const holder = library.find((idea) => idea.identities.includes(identity));
  if (!holder) {
    return { classification: decideLexically(ranked, terms, identity), ranked, askable: ranked.length > 0 };
  }
  const classification: CaptureClassification = {
    decision: 'EXISTING',
    slug: holder.slug,
    candidates: [
      ...ranked.filter((c) => c.slug === holder.slug),
      ...ranked.filter((c) => c.slug !== holder.slug && c.score > 0),
    ].slice(0, SHOWN_CANDIDATES),
    inspiredBy: null,
    duplicateOf: holder.slug,
    identity,
    by: 'identity',
    reason: `the same text was captured into "${holder.title}" before`,
    terms,
  };
  return { classification, ranked, askable: false };
}
