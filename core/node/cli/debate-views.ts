import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import type { ParsedArgs } from './args';
import type { CliIo } from './io';

/** `debates events|progress|map|course ID`: what the live view, the crux map and the course chart read. */
export function debateView(
  args: ParsedArgs,
  io: CliIo,
  action: 'events' | 'progress' | 'map' | 'course',
  id: string,
): Promise<number> {
  const fromText = args.options.from as string | undefined;
  const from = fromText === undefined ? 0 : Number(fromText);
  if (!Number.isInteger(from) || from < 0)
    throw new UserError(`--from must be a whole number, 0 or more, not "${fromText}"`);
  if (fromText !== undefined && action !== 'events')
    throw new UserError(`debates ${action}: --from is for events only`);
  return withApp(args, async (app) => {
    const asJson = args.options.json === true;
    if (action === 'events') {
      const out = await call(app, 'debates:events', { id, from });
      io.out(
        asJson
          ? JSON.stringify(out, null, 2)
          : [...out.events.map((e, i) => `${from + i} ${e.type}`), `${out.total} event(s) in the log`].join('\n'),
      );
    } else if (action === 'progress') {
      const p = await call(app, 'debates:progress', { id });
      io.out(
        asJson
          ? JSON.stringify(p, null, 2)
          : [
              `Debate ${p.id}: ${p.status}${p.reason ? ` (${p.reason})` : ''}; ${p.meter.messages}/${p.meter.maxMessages} messages, $${p.meter.costUsd.toFixed(4)}${p.meter.budgetUsd ? ` of $${p.meter.budgetUsd}` : ''}, ${p.meter.llmCalls} calls`,
              ...p.threads.map(
                (t) =>
                  `  ${t.id} ${t.status}: ${t.binaryQuestion ?? t.topic} (lock attempts ${t.lockAttempts}/${t.maxLockAttempts})`,
              ),
            ].join('\n'),
      );
    } else if (action === 'map') {
      const map = await call(app, 'debates:cruxMap', { id });
      io.out(
        asJson
          ? JSON.stringify(map, null, 2)
          : [
              `${map.topic}: ${map.cruxes.length} crux(es), ${map.edges.length} edge(s), ${map.coalitions.length} coalition(s)`,
              ...map.cruxes.map(
                (c) =>
                  `  ${c.id}${c.primary ? ' (primary)' : ''} DCG ${c.dcg === null ? '—' : c.dcg.toFixed(2)}: ${c.question}`,
              ),
              ...map.edges.map((e) => `  ${e.kind} ${e.from} → ${e.to}: ${e.reason}`),
            ].join('\n'),
      );
    } else {
      const course = await call(app, 'debates:course', { id });
      io.out(
        asJson
          ? JSON.stringify(course, null, 2)
          : [
              `${course.topic}: ${course.messages} message(s)`,
              ...course.threads.map(
                (t) =>
                  `  ${t.id} ${t.status}: DCG ${t.dcgPoints.map((d) => `${d.index}:${d.score.toFixed(2)}`).join(' ') || '—'}`,
              ),
            ].join('\n'),
      );
    }
    return 0;
  });
}
