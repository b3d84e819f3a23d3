import { join, resolve } from 'node:path';
import type { Log } from '../../ports/log';
import { TaxonomyError } from '../../taxonomy/taxonomy';
import { createApp } from '../app/create-app';
import { appRoot } from '../app-root';
import { ArgError, type CommandSpec, formatHelp, parseArgs } from '../cli/args';
import { type CliIo, processIo } from '../cli/io';
import { invokedDirectly } from '../invoked-directly';
import { UserError } from '../workspace/workspace';
import { ensureRendererBuilt } from './build-renderer';
import { startWebServer } from './server';

export const webSpec: CommandSpec = {
  name: 'web',
  summary: 'Serve the app to a browser on this computer (127.0.0.1 only), with a session token.',
  usage: 'web --workspace DIR [--port N] [--static DIR]',
  positionals: [],
  options: {
    workspace: {
      type: 'string',
      value: 'DIR',
      description: 'the workspace folder (default: $CRUCIBLE_WORKSPACE, else the current folder)',
    },
    port: { type: 'string', value: 'N', description: 'the port to listen on (default: a free one)' },
    static: { type: 'string', value: 'DIR', description: 'the built renderer (default: out/renderer of the app)' },
  },
};

function stderrLog(io: CliIo): Log {
  const line = (level: string) => (message: string, data?: Record<string, unknown>) =>
    io.err(`${new Date().toISOString()} ${level} ${message}${data ? ` ${JSON.stringify(data)}` : ''}`);
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

/**
 * `npm run web -- --workspace DIR [--port N]`: opens the workspace, serves it on 127.0.0.1 and
 * prints the address to open (with its token) until stopped (Ctrl-C, SIGTERM); then closes the
 * server before the app, so no request reaches a closed workspace. Exit codes as the CLI's: 0 done,
 * 1 a problem with what was asked, 3 a bug.
 */
export async function runWeb(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(formatHelp(webSpec).replace('npm run cli -- web', 'npm run web --'));
    return 0;
  }
  try {
    const { options } = parseArgs(argv, webSpec);
    const workspace = resolve(
      (options.workspace as string | undefined) ?? process.env.CRUCIBLE_WORKSPACE ?? process.cwd(),
    );
    const portText = (options.port as string | undefined) ?? '0';
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port > 65535)
      throw new UserError(`--port must be a port number (0-65535), not "${portText}"`);
    const log = stderrLog(io);
    const staticOption = options.static as string | undefined;
    // From source, the page is built first (and rebuilt when its sources changed); a folder given
    // with --static is served as it is.
    if (staticOption === undefined) await ensureRendererBuilt(appRoot(), (line) => io.err(line));
    const staticDir = resolve(staticOption ?? join(appRoot(), 'out', 'renderer'));

    // A researcher watches this app: simulated runs unfold at a visible pace unless Settings say instant.
    const app = await createApp({ workspaceRoot: workspace, log, paceSimulated: true, warmLists: true });
    let server: Awaited<ReturnType<typeof startWebServer>>;
    try {
      server = await startWebServer({ app, port, staticDir, log });
    } catch (error) {
      await app.close();
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
        throw new UserError(`port ${port} is already in use (try --port 0)`);
      throw error;
    }
    io.err(`Crucible is serving ${workspace} to this computer only. Open this address (it holds the session token):`);
    io.out(server.url);
    await io.untilStopped();
    io.err('Stopping…');
    // Server first (no new calls, event streams ended), then the app (watcher, debates, index).
    await server.close();
    await app.close();
    return 0;
  } catch (error) {
    if (error instanceof ArgError || error instanceof UserError) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    if (error instanceof TaxonomyError) {
      io.err(`error: the taxonomy or templates are invalid:\n${error.problems.map((p) => `  ${p}`).join('\n')}`);
      return 1;
    }
    io.err(
      `internal error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return 3;
  }
}

if (invokedDirectly(import.meta.url)) {
  let stopping = false;
  // A second Ctrl-C while closing means "now": leave without waiting.
  const force = () => {
    if (stopping) process.exit(130);
    stopping = true;
  };
  process.on('SIGINT', force);
  process.on('SIGTERM', force);
  // The last resort of a server holding the researcher's page open: an error that escaped every
  // handler (the watcher's callbacks catch and report their own) is logged, and serving goes on,
  // rather than the page losing its server to one odd entry in the folder.
  const lastResort = (error: unknown) =>
    process.stderr.write(
      `internal error (please report it; still serving): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  process.on('uncaughtException', lastResort);
  process.on('unhandledRejection', lastResort);
  runWeb(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`internal error: ${String(error)}\n`);
      process.exitCode = 3;
    },
  );
}
