/**
 * Browser mode on one workspace, in a process of its own, for benchmarks that time a start: prints
 * `{"url": …}` on its first line of stdout once it serves, and closes the app (which writes what it
 * keeps under `.crucible/`) on SIGTERM or when stdin ends.
 *
 *   tsx bench/ui/serve.ts <workspace> <renderer folder> [cold]
 *
 * `cold`: without the warm-up of the lists after the start (browser mode has it), to compare.
 */
import { createApp } from '../../core/node/app/create-app';
import { startWebServer } from '../../core/node/web/server';

const [root, staticDir, cold] = process.argv.slice(2);
if (!root || !staticDir) throw new Error('usage: serve.ts <workspace> <renderer folder>');
// As browser mode opens it (core/node/web/main.ts), without the watcher.
const app = await createApp({ workspaceRoot: root, watch: false, paceSimulated: true, warmLists: cold !== 'cold' });
const server = await startWebServer({ app, port: 0, staticDir });
let closing = false;
const close = async () => {
  if (closing) return;
  closing = true;
  await server.close();
  await app.close();
  process.exit(0);
};
process.on('SIGTERM', close);
process.stdin.on('end', close);
process.stdin.resume();
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
