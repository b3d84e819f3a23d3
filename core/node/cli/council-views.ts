import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import type { ParsedArgs } from './args';
import type { CliIo } from './io';

/**
 * `council task ID | inbox | preview ID | weights`: what the app's council view and approvals inbox
 * read, through the same channels, so the CLI and the app never answer differently. Answers null
 * for any other subcommand (the council command handles it).
 */
export const COUNCIL_VIEWS_USAGE = [
  '       council task ID | inbox                                        one task in full; the proposals waiting for you',
  '       council preview ID                                             what a waiting proposal would change, file by file',
  '       council weights                                                the agents’ value weights, their spread and history',
];

export async function councilView(
  sub: string | undefined,
  id: string | undefined,
  args: ParsedArgs,
  io: CliIo,
): Promise<number | null> {
  if (sub !== 'task' && sub !== 'inbox' && sub !== 'preview' && sub !== 'weights') return null;
  const needId = () => {
    if (!id) throw new UserError(`council ${sub}: give the id (see: npm run cli -- council list)`);
    return id;
  };
  const asJson = args.options.json === true;
  return withApp(args, async (app) => {
    if (sub === 'task') {
      const t = await call(app, 'council:get', { id: needId() });
      io.out(
        asJson
          ? JSON.stringify(t, null, 2)
          : [
              `council task ${t.id}: ${t.outcome}; ${t.task}${t.idea ? ` (${t.idea})` : ''}; waits for ${t.waitsFor}`,
              ...t.proposals.map(
                (p) =>
                  `  ${p.id}  ${p.status.padEnd(19)} ${p.stakes.padEnd(6)} ladder ${p.ladder}${p.flags.length ? `  flags ${p.flags.join(' ')}` : ''}  ${p.goal}`,
              ),
            ].join('\n'),
      );
    } else if (sub === 'inbox') {
      const { proposals } = await call(app, 'council:approvals', {});
      io.out(
        asJson
          ? JSON.stringify(proposals, null, 2)
          : proposals.length === 0
            ? 'nothing waits for you'
            : proposals
                .map((p) => `${p.id}  ${p.stakes.padEnd(6)} (${p.waitReason ?? ''})  ${p.goal}  — ${p.task}`)
                .join('\n'),
      );
    } else if (sub === 'preview') {
      const preview = await call(app, 'council:preview', { id: needId() });
      io.out(
        asJson
          ? JSON.stringify(preview, null, 2)
          : [
              ...preview.files.map((f) => `${f.change.padEnd(8)} ${f.path}${f.to ? ` → ${f.to}` : ''}`),
              ...preview.failures.map((f) => `cannot: action ${f.action + 1} (${f.tool}): ${f.detail}`),
              preview.files.length === 0 && preview.failures.length === 0 ? 'it changes no file' : '',
            ]
              .filter(Boolean)
              .join('\n'),
      );
    } else {
      const w = await call(app, 'council:weights', {});
      io.out(
        asJson
          ? JSON.stringify(w, null, 2)
          : [
              `${''.padEnd(13)}${w.agents.map((a) => a.padEnd(11)).join('')}spread`,
              ...w.values.map(
                (v) =>
                  `${v.padEnd(13)}${w.agents.map((a) => String(w.current[a][v]).padEnd(11)).join('')}${w.spread[v]}`,
              ),
              `${w.history.length} adjustment(s) in the history, ${w.history.filter((h) => h.refused).length} refused`,
            ].join('\n'),
      );
    }
    return 0;
  });
}
