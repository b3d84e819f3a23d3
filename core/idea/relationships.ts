/** How one idea relates to another; the vocabulary of the seed, used by the graph view. */
export const RELATIONSHIP_TYPES = ['parent', 'child', 'related', 'combines', 'conflicts', 'inspired_by'] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

export interface Relationship {
  target: string;
  type: RelationshipType;
  strength: number | null;
  reason: string | null;
}
