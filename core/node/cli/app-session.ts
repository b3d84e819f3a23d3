import type { Channel, ChannelInput, ChannelOutput } from '../../contract';
import { type App, createApp } from '../app/create-app';
import type { ParsedArgs } from './args';
import { workspaceDir } from './common';

/**
 * The app as the CLI uses it: the same handler table the desktop app and browser mode serve, built
 * for one command and closed after it (no watcher: the command is over before an edit could matter).
 * Commands that show or change what the app's views show go through it, so the CLI and the app
 * never answer differently.
 */
export async function withApp<T>(args: ParsedArgs, body: (app: App) => Promise<T> | T): Promise<T> {
  // A command answers once: its lists are read and counted whole, nothing is left to a background.
  const app = await createApp({
    workspaceRoot: workspaceDir(args),
    watch: false,
    listingBudgetMs: Number.POSITIVE_INFINITY,
  });
  try {
    return await body(app);
  } finally {
    await app.close();
  }
}

/** One channel of the contract, called on an app (input parsed and output checked by its handler). */
export function call<C extends Channel>(app: App, channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  return app.client.invoke(channel, input);
}
