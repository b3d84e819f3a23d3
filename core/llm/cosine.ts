/**
 * Cosine similarity of two embeddings, and the agreement of every pair of texts from their embeddings.
 * Text embeddings rarely point apart, but they can: a negative cosine is read as no agreement (0), so
 * an agreement stays in [0, 1] like the other measures'.
 */

export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RangeError(`embeddings of different lengths (${a.length} and ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  // A zero vector agrees with nothing (and 0/0 is no number).
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}

/** Every pair of ids once, in their order ((0,1), (0,2) … (1,2) …), with its agreement. */
export function pairwiseAgreement(
  ids: readonly string[],
  vectors: readonly (readonly number[])[],
): { a: string; b: string; agreement: number }[] {
  if (ids.length !== vectors.length) throw new RangeError(`${ids.length} texts but ${vectors.length} embeddings`);
  const pairs: { a: string; b: string; agreement: number }[] = [];
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++)
      pairs.push({
        a: ids[i] as string,
        b: ids[j] as string,
        agreement: Math.min(1, Math.max(0, cosine(vectors[i] as number[], vectors[j] as number[]))),
      });
  return pairs;
}
