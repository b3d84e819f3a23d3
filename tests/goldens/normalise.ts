/**
 * The one place where what legitimately differs between two runs of the same seeded simulated run is
 * set aside. The CLI has no fixed clock and no fixed ids, so these cannot be pinned at the source:
 *
 * - the fresh ids of the run (a debate's or an evaluation's ULID) and the absolute path of the
 *   temporary workspace, passed in `known` with the placeholder each becomes (`<debate-id>`, …);
 * - wall-clock instants (ISO 8601 with a time: `2026-11-27T00:51:57.653Z`) become `<timestamp>`;
 *   a bare date such as a falsifier's deadline `2027-12-31` is content and stays, except the date a
 *   just-locked evaluation may be stale from, which is counted from the wall clock (`may be stale
 *   from <date>`);
 * - a `"durationMs"` field, measured on the wall clock, keeps its key and gets `"<duration-ms>"`.
 *
 * Nothing else is touched and no field is dropped, so every other byte still has to match. Replays
 * need none of this: their ids and times come from the script.
 */
export function normalise(text: string, known: Readonly<Record<string, string>>): string {
  let out = text;
  // Longest first, so a path is replaced before an id it may contain is.
  for (const [value, placeholder] of Object.entries(known).sort(([a], [b]) => b.length - a.length)) {
    if (value === '') throw new Error(`normalise: the value for ${placeholder} is empty`);
    out = out.split(value).join(placeholder);
  }
  return out
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<timestamp>')
    .replace(/may be stale from \d{4}-\d{2}-\d{2}/g, 'may be stale from <date>')
    .replace(/("durationMs":\s*)\d+(?:\.\d+)?/g, '$1"<duration-ms>"');
}
