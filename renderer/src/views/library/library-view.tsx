import type { Route } from '../../router';

/** Placeholder until this view is built. */
export function LibraryView({ route }: { route: Route }) {
  void route;
  return (
    <section className="view">
      <h1>Library</h1>
      <p>Not built yet.</p>
    </section>
  );
}
