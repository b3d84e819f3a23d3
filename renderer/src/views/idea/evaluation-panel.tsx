/** Placeholder until this panel of the idea page is built. */
export function EvaluationPanel({ slug }: { slug: string }) {
  void slug;
  return null;
}
