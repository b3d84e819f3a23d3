/** Placeholder until this panel of the idea page is built. */
export function DebatesPanel({ slug }: { slug: string }) {
  void slug;
  return null;
}
