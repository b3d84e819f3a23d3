/**
 * Runs `tasks` with at most `limit` in flight and returns their outcomes in the order the tasks were
 * given, whatever order they finish in. Results are then applied in that order, which keeps a debate
 * deterministic for a deterministic provider even though the calls overlap.
 */
export async function runPooled<T>(
  tasks: readonly (() => Promise<T>)[],
  limit: number,
): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      if (index >= tasks.length) return;
      const task = tasks[index] as () => Promise<T>;
      try {
        results[index] = { status: 'fulfilled', value: await task() };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  return results;
}
