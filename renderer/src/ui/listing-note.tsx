/**
 * What a list of evaluations does not show yet, on the first look at records this app has not
 * read before (a workspace opened for the first time, or copied in): they are read, and their
 * transcripts' entries counted, in the background, and the list is asked for again as that goes on.
 */
export function ListingNote({ reading, counting }: { reading: number; counting: number }) {
  if (reading === 0 && counting === 0) return null;
  const n = (k: number) => k.toLocaleString('en');
  const parts = [
    ...(reading > 0 ? [`reading ${n(reading)} evaluation${reading === 1 ? '' : 's'} not listed yet`] : []),
    ...(counting > 0 ? [`counting the entries of ${n(counting)} transcript${counting === 1 ? '' : 's'}`] : []),
  ];
  return (
    <p className="muted" role="status" data-testid="listing-note">
      First look at these evaluations: {parts.join('; ')}. The list fills in as that goes on.
    </p>
  );
}
