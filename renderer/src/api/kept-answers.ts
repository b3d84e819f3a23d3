import type { ApiClient, Channel, ChannelOutput } from '../../../core/contract';

/**
 * Channels whose whole answer the main side keeps until the index changes, which it says with the
 * `sync:changed` push: the whole library (5 MB at 10,000 ideas). Seven views and the palette ask for
 * it; each asking again took a fetch and a parse of those megabytes (~0.2–0.4 s) before the view
 * could draw anything.
 */
const KEPT: ReadonlySet<string> = new Set<Channel>(['ideas:list']);
/** Only the whole answer is kept on the main side; a filtered one is asked for again. */
const WHOLE = '{}';

/**
 * The page's copy of those answers, one set per client, dropped on every `sync:changed` (the push
 * the main side sends as it drops its own): a view that opens meanwhile draws from it at once, and
 * asks again only when told the answer changed.
 */
export class KeptAnswers {
  private readonly answers = new Map<string, unknown>();
  /** How many times the index changed: an answer asked for before a change is not kept after it. */
  private changes = 0;

  constructor(client: Pick<ApiClient, 'on'>) {
    client.on('sync:changed', () => {
      this.changes++;
      this.answers.clear();
    });
  }

  /** What to hand `put` with the answer of a question asked now. */
  asked(): number {
    return this.changes;
  }

  /** Whether `channel` with the input `key` (its JSON) is an answer kept here. */
  static keeps(channel: Channel, key: string): boolean {
    return KEPT.has(channel) && key === WHOLE;
  }

  get<C extends Channel>(channel: C, key: string): ChannelOutput<C> | undefined {
    return KeptAnswers.keeps(channel, key) ? (this.answers.get(channel) as ChannelOutput<C> | undefined) : undefined;
  }

  /** Keeps `answer` unless the index changed since it was asked for (`asked`, then). */
  put<C extends Channel>(channel: C, key: string, answer: ChannelOutput<C>, asked: number): void {
    if (KeptAnswers.keeps(channel, key) && asked === this.changes) this.answers.set(channel, answer);
  }
}

const perClient = new WeakMap<object, KeptAnswers>();

/** The kept answers of `client` (made, and listening, on first use). */
export function keptAnswersOf(client: ApiClient): KeptAnswers {
  let kept = perClient.get(client);
  if (!kept) {
    kept = new KeptAnswers(client);
    perClient.set(client, kept);
  }
  return kept;
}
