import type { Route } from '../../router';

/** Placeholder until this view is built. */
export function LedgerView({ route }: { route: Route }) {
  void route;
  return (
    <section className="view">
      <h1>Crux ledger</h1>
      <p>Not built yet.</p>
    </section>
  );
}
