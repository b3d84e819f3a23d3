/**
 * Soak: the app under the world's weather for N minutes. On a generated workspace it keeps a
 * watcher (`watch`), browser mode (`web`, which has its own watcher) and CLI writers busy, while it
 * plants symlink loops, links to files and folders outside the workspace, unreadable folders,
 * BOM'd READMEs and READMEs turned into folders, races an editor against `stage`, and kill -9s
 * writers, the watcher and browser mode. Then it checks:
 *
 * - no process died on its own (a kill -9 we sent is not a death; exit 3, a crash or a 500 is);
 * - the index equals the folder: the live index, left by the watchers, equals one built from scratch
 *   by a full sync, and every indexed file's hash is that of its bytes on disk;
 * - no edit was lost: every README the editor raced still holds the editor's last edit;
 * - nothing outside was read: a canary word that exists only outside the workspace appears in no
 *   response, no command output and no index file.
 *
 *   npm run soak -- --minutes N [--ideas N] [--seed S] [--keep]
 *
 * Progress goes to stderr; stdout carries one JSON object with the figures. Exits 1 if a check failed.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { generateWorkspace } from '../../bench/lib/generate';
import { Prng } from '../../bench/lib/prng';
import { loadTaxonomy } from '../../core/node/taxonomy-loader';
import { type Child, cliProcess, type Finished, waitForOutput, webProcess } from './processes';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    ideas: { type: 'string', default: '400' },
    seed: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const ideaCount = Number(values.ideas);
if (!(minutes > 0) || !(ideaCount >= 20)) throw new Error('--minutes must be > 0 and --ideas at least 20');
const rng = new Prng(Number(values.seed));
const log = (line: string) => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

// ---- the workspace, and a secret outside it
const base = mkdtempSync(join(tmpdir(), 'crucible-soak-'));
const ws = join(base, 'workspace');
const outside = join(base, 'outside');
const canary = `zqcanary${randomBytes(6).toString('hex')}`;
mkdirSync(join(outside, 'idea'), { recursive: true });
writeFileSync(
  join(outside, 'secret.md'),
  `---\ntitle: Secret ${canary}\n---\nThe word ${canary} lives only outside.\n`,
);
writeFileSync(
  join(outside, 'idea', 'README.md'),
  `---\ntitle: Outside ${canary}\ntype: research\nstage: SPARK\n---\n# Outside\n\n${canary}\n`,
);
const taxonomy = loadTaxonomy(null);
const stages = [...taxonomy.stageIds];
const generated = generateWorkspace(ws, ideaCount, {
  types: [...taxonomy.typeIds],
  stages,
  tags: [...taxonomy.tagCategory.keys()],
  criteria: taxonomy.criteria.map((c) => c.id),
});
const slugs = [...generated.slugs];
/** Ideas the racing editor and the `stage` writers fight over. */
const contested = slugs.slice(0, 6);
const editable = slugs.slice(6);

// ---- what happened
const counts: Record<string, number> = {};
const count = (what: string, n = 1) => {
  counts[what] = (counts[what] ?? 0) + n;
};
const deaths: string[] = [];
const leaks: string[] = [];
const serverErrors: string[] = [];
const planted: Record<string, number> = {};
const unreadable: string[] = [];
const peakRss = { watch: 0, web: 0 };
const lastEdit = new Map<string, string>();
const deadline = Date.now() + minutes * 60_000;
const running = () => Date.now() < deadline;
/** Set when the soak itself stops the watcher and browser mode (SIGTERM), so their exit is not a death. */
let stopping = false;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sawOutput(source: string, text: string): void {
  if (text.includes(canary))
    leaks.push(`${source}: ${text.slice(Math.max(0, text.indexOf(canary) - 200), text.indexOf(canary) + 50)}`);
}

/** A finished CLI run: exit 0 or 1 (a clear refusal) is fine; anything else that we did not cause is a death. */
function judge(what: string, run: Finished): void {
  sawOutput(what, run.stdout + run.stderr);
  if (run.killedByUs) {
    count('killed -9');
    return;
  }
  count(`exit ${run.code ?? run.signal}`);
  if (run.code !== 0 && run.code !== 1)
    deaths.push(`${what} exited ${run.code ?? run.signal}: ${run.stderr.slice(-600)}`);
}

// ---- long-running processes: the watcher and browser mode, restarted after each kill -9
let watch: Child;
let web: Child;
let webUrl = '';

function startWatch(): void {
  watch = cliProcess(['watch', '--workspace', ws, '--json']);
  const mine = watch;
  void mine.done.then((run) => {
    sawOutput('watch', run.stdout + run.stderr);
    if (!run.killedByUs && !stopping)
      deaths.push(`watch exited ${run.code ?? run.signal} on its own: ${run.stderr.slice(-1500)}`);
  });
}

async function startWeb(): Promise<void> {
  web = webProcess(['--workspace', ws, '--port', '0']);
  const mine = web;
  void mine.done.then((run) => {
    if (!run.killedByUs && !stopping)
      deaths.push(`web exited ${run.code ?? run.signal} on its own: ${run.stderr.slice(-1500)}`);
  });
  webUrl = (await waitForOutput(web, /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/))[0];
}

async function rpc(channel: string, input: unknown): Promise<{ status: number; text: string }> {
  const url = new URL(webUrl);
  const token = url.searchParams.get('token') ?? '';
  try {
    const res = await fetch(`${url.origin}/rpc/${channel}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    const text = await res.text();
    sawOutput(`web ${channel}`, text);
    count(`http ${res.status}`);
    if (res.status >= 500)
      serverErrors.push(`${channel} ${JSON.stringify(input).slice(0, 200)} → ${res.status} ${text.slice(0, 300)}`);
    return { status: res.status, text };
  } catch {
    // Browser mode being restarted after a kill -9.
    count('http unreachable');
    return { status: 0, text: '' };
  }
}

// ---- actors
const bom = (title: string, stage = 'SPARK') =>
  `\uFEFF---\ntitle: ${JSON.stringify(title)}\ntype: research\nstage: ${stage}\ntags: [soak]\nsummary: "BOM first"\n---\n# ${title}\n\nA file saved by an editor that writes a byte-order mark.\n`;

/** CLI writers: capture (text, BOM'd file), stage (often on the contested ideas), sync; some kill -9'd mid-run. */
async function writer(id: number): Promise<void> {
  for (let n = 0; running(); n++) {
    const roll = rng.next();
    let args: string[];
    if (roll < 0.25)
      args = ['capture', '--workspace', ws, '--title', `Soak ${id}-${n}`, '--text', 'Captured while the soak ran.'];
    else if (roll < 0.35) {
      const file = join(base, `drop-${id}-${n}.md`);
      writeFileSync(file, bom(`Dropped ${id} ${n}`));
      args = ['capture', '--workspace', ws, '--file', file];
    } else if (roll < 0.9) {
      const slug = rng.chance(0.6) ? rng.pick(contested) : rng.pick(editable);
      args = ['stage', slug, rng.pick(stages), '--workspace', ws];
    } else args = ['sync', '--workspace', ws, '--json'];
    const child = cliProcess(args);
    if (rng.chance(0.1)) setTimeout(() => child.kill('SIGKILL'), rng.int(300, 2500));
    judge(args.slice(0, 1).join(' '), await child.done);
    count(`cli ${args[0]}`);
  }
}

/** An editor saving in place (truncate, write) every ~2 ms in bursts, each save with a new marker line. */
async function editor(): Promise<void> {
  for (let n = 0; running(); n++) {
    const slug = rng.pick(contested);
    const path = join(ws, 'ideas', slug, 'README.md');
    const burstEnd = Date.now() + 300;
    while (Date.now() < burstEnd) {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        break;
      }
      const marker = `soak-edit ${slug} ${n}-${Date.now()}-${rng.int(0, 1e6)}`;
      const next = `${text.replace(/\nsoak-edit .*\n?$/, '\n').replace(/\n*$/, '\n')}soak-edit ${marker.slice(10)}\n`;
      writeFileSync(path, next);
      lastEdit.set(slug, marker);
      count('editor saves');
      await sleep(2);
    }
    await sleep(rng.int(200, 1500));
  }
}

/** Plants something hostile every few seconds, in rotation. */
async function planter(): Promise<void> {
  const kinds = [
    'loop',
    'pair-loop',
    'self-readme',
    'outside-file',
    'outside-folder',
    'unreadable',
    'bom',
    'readme-dir',
    'js',
  ];
  for (let n = 0; running(); n++) {
    const kind = kinds[n % kinds.length] as string;
    const slug = `planted-${kind}-${n}`;
    const dir = join(ws, 'ideas', slug);
    const victim = join(ws, 'ideas', rng.pick(editable));
    try {
      switch (kind) {
        case 'loop':
          symlinkSync('.', join(victim, `loop-${n}`));
          break;
        case 'pair-loop':
          symlinkSync(`b-${n}.md`, join(victim, `a-${n}.md`));
          symlinkSync(`a-${n}.md`, join(victim, `b-${n}.md`));
          break;
        case 'self-readme':
          mkdirSync(dir);
          symlinkSync('README.md', join(dir, 'README.md'));
          break;
        case 'outside-file':
          symlinkSync(join(outside, 'secret.md'), join(victim, `leak-${n}.md`));
          break;
        case 'outside-folder':
          symlinkSync(join(outside, 'idea'), dir);
          break;
        case 'unreadable':
          mkdirSync(dir);
          writeFileSync(join(dir, 'README.md'), bom(`Unreadable ${n}`));
          chmodSync(dir, 0o000);
          unreadable.push(dir);
          break;
        case 'bom':
          mkdirSync(dir);
          writeFileSync(join(dir, 'README.md'), bom(`With a BOM ${n}`));
          break;
        case 'readme-dir': {
          const readme = join(victim, 'README.md');
          renameSync(readme, join(victim, 'README.moved-aside.md'));
          mkdirSync(readme);
          break;
        }
        case 'js':
          mkdirSync(dir);
          writeFileSync(
            join(dir, 'README.md'),
            `---js\n{ title: (require('fs').writeFileSync(${JSON.stringify(join(base, 'pwned'))}, 'x'), 'x') }\n---\n`,
          );
          break;
      }
      planted[kind] = (planted[kind] ?? 0) + 1;
      if (kind === 'readme-dir' || kind === 'outside-file' || kind === 'loop' || kind === 'pair-loop')
        editable.splice(editable.indexOf(victim.split('/').pop() as string), 1);
    } catch (error) {
      count(`plant failed: ${(error as Error).message.split(':')[0]}`);
    }
    await sleep(rng.int(1500, 4000));
  }
}

/** A browser-mode client: lists, searches (for the canary too), opens files (planted links included), uploads BOM'd files. */
async function browser(): Promise<void> {
  for (let n = 0; running(); n++) {
    const roll = rng.next();
    if (roll < 0.2) await rpc('ideas:list', {});
    else if (roll < 0.4) await rpc('ideas:search', { query: rng.chance(0.5) ? canary : 'the' });
    else if (roll < 0.7) {
      // Any file the index knows of, or a planted link by its path.
      const slug = rng.pick(slugs);
      const folder = join(ws, 'ideas', slug);
      let names: string[] = [];
      try {
        names = readdirSync(folder);
      } catch {}
      const name = names.length > 0 ? rng.pick(names) : 'README.md';
      await rpc('ideas:file', { slug, path: `ideas/${slug}/${name}` });
    } else if (roll < 0.8) await rpc('ideas:get', { slug: rng.pick(slugs) });
    else if (roll < 0.9)
      await rpc('ideas:captureUpload', {
        name: `upload-${n}.md`,
        contentBase64: Buffer.from(bom(`Uploaded ${n}`)).toString('base64'),
      });
    else await rpc('workspace:errors', {});
    await sleep(rng.int(50, 300));
  }
}

/** kill -9 of the watcher and of browser mode from time to time, each restarted at once. */
async function killer(): Promise<void> {
  while (running()) {
    await sleep(rng.int(40_000, 80_000));
    if (!running()) break;
    if (rng.chance(0.5)) {
      watch.kill('SIGKILL');
      count('watch killed -9');
      await watch.done;
      startWatch();
    } else {
      web.kill('SIGKILL');
      count('web killed -9');
      await web.done;
      await startWeb();
    }
  }
}

async function sampleMemory(): Promise<void> {
  while (running()) {
    peakRss.watch = Math.max(peakRss.watch, watch.rssMb() ?? 0);
    peakRss.web = Math.max(peakRss.web, web.rssMb() ?? 0);
    await sleep(2000);
  }
}

// ---- checks
interface IndexRows {
  ideas: string[];
  files: string[];
  errors: string[];
}

function readIndex(path: string): IndexRows {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = (sql: string) => (db.prepare(sql).raw().all() as unknown[][]).map((r) => JSON.stringify(r));
    return {
      ideas: rows('SELECT slug, id, title, type, stage, summary, content_hash FROM ideas ORDER BY slug'),
      files: rows('SELECT path, slug, kind, size, hash FROM files ORDER BY path'),
      errors: rows('SELECT DISTINCT path FROM sync_errors ORDER BY path'),
    };
  } finally {
    db.close();
  }
}

const diff = (a: string[], b: string[]) => ({
  onlyLive: a.filter((x) => !b.includes(x)).slice(0, 10),
  onlyRebuilt: b.filter((x) => !a.includes(x)).slice(0, 10),
});

function bytesOf(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch {
    return Buffer.alloc(0);
  }
}

async function main(): Promise<number> {
  log(`workspace ${ws}: ${ideaCount} ideas, ${generated.files.length} files; outside ${outside}; ${minutes} min`);
  const first = cliProcess(['sync', '--workspace', ws, '--json']);
  judge('first sync', await first.done);
  startWatch();
  await startWeb();
  await waitForOutput(watch, /"event":"reconciled"/);
  log(`watching (pid ${watch.pid}) and serving ${new URL(webUrl).origin} (pid ${web.pid})`);

  const progress = setInterval(
    () =>
      log(`${Math.round((deadline - Date.now()) / 1000)} s left; ${JSON.stringify(counts)}; deaths ${deaths.length}`),
    30_000,
  );
  await Promise.all([writer(1), writer(2), editor(), planter(), browser(), killer(), sampleMemory()]);
  clearInterval(progress);

  // Quiet: let the watchers take in the last changes, then stop them the ordinary way.
  log('stopping; letting the watchers settle');
  await sleep(4000);
  stopping = true;
  for (const child of [watch, web]) child.process.kill('SIGTERM');
  const [watchEnd, webEnd] = await Promise.all([
    Promise.race([watch.done, sleep(30_000).then(() => null)]),
    Promise.race([web.done, sleep(30_000).then(() => null)]),
  ]);
  if (watchEnd === null || webEnd === null) deaths.push('watch or web did not stop within 30 s of SIGTERM');
  for (const [name, end] of [
    ['watch', watchEnd],
    ['web', webEnd],
  ] as const)
    if (end && !end.killedByUs && end.code !== 0)
      deaths.push(`${name} ended with ${end.code ?? end.signal} after SIGTERM`);

  // Unreadable folders stay planted for the rebuild: they must be reported, not crash it.
  const indexPath = join(ws, '.crucible', 'index.db');
  const live = readIndex(indexPath);
  const liveBytes = ['', '-wal', '-shm'].map((s) => bytesOf(`${indexPath}${s}`));
  mkdirSync(join(base, 'live-index'));
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(`${indexPath}${suffix}`))
      renameSync(`${indexPath}${suffix}`, join(base, 'live-index', `index.db${suffix}`));
  const rebuild = cliProcess(['sync', '--workspace', ws, '--json']);
  const rebuildRun = await rebuild.done;
  judge('rebuild sync', rebuildRun);
  const rebuilt = readIndex(indexPath);

  const indexDiff = {
    ideas: diff(live.ideas, rebuilt.ideas),
    files: diff(live.files, rebuilt.files),
    errors: diff(live.errors, rebuilt.errors),
  };
  const indexEqual = Object.values(indexDiff).every((d) => d.onlyLive.length === 0 && d.onlyRebuilt.length === 0);

  // Every indexed file's hash is the hash of its bytes on disk; a link may be there only as a reported
  // entry (kind `other`, never hashed, so never read).
  const badHashes: string[] = [];
  for (const row of rebuilt.files.map((r) => JSON.parse(r) as [string, string, string, number, string | null])) {
    const [path, , kind, , hash] = row;
    const abs = join(ws, path);
    if (lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) {
      if (kind !== 'other' || hash !== null) badHashes.push(`${path} is a link, indexed as ${kind}`);
      const reported = rebuilt.errors.some((e) => (JSON.parse(e) as string[])[0] === path);
      if (!reported) badHashes.push(`${path} is a link nobody reported`);
    } else if (hash !== null && createHash('sha256').update(bytesOf(abs)).digest('hex') !== hash) badHashes.push(path);
  }

  const lostEdits = [...lastEdit].filter(
    ([slug, marker]) => !bytesOf(join(ws, 'ideas', slug, 'README.md')).includes(marker),
  );
  // A README rebuilt from a half-written file shows as a second frontmatter block or a lost one.
  const mangled = contested.filter((slug) => {
    const text = bytesOf(join(ws, 'ideas', slug, 'README.md')).toString('utf8');
    return !/^\uFEFF?---\n/.test(text) || (text.match(/^id: /gm) ?? []).length !== 1;
  });
  for (const [i, bytes] of [...liveBytes, ...['', '-wal'].map((s) => bytesOf(`${indexPath}${s}`))].entries())
    if (bytes.includes(canary)) leaks.push(`index file ${i} holds the canary`);
  const search = cliProcess(['search', canary, '--workspace', ws, '--json']);
  const searchRun = await search.done;
  judge('search canary', searchRun);
  if (existsSync(join(base, 'pwned'))) leaks.push('a ---js frontmatter ran');
  const conflictCopies = contested.flatMap((slug) =>
    readdirSync(join(ws, 'ideas', slug)).filter((name) => name.includes('.conflict-')),
  ).length;

  for (const dir of unreadable) chmodSync(dir, 0o755);
  const result = {
    minutes,
    ideas: ideaCount,
    runningAsRoot: process.getuid?.() === 0,
    counts,
    planted,
    peakRssMb: { watch: Math.round(peakRss.watch), web: Math.round(peakRss.web) },
    conflictCopiesOfContested: conflictCopies,
    reportedErrors: rebuilt.errors.length,
    checks: {
      noProcessDied: deaths.length === 0 && serverErrors.length === 0,
      indexEqualsFolder: indexEqual && badHashes.length === 0,
      noEditLost: lostEdits.length === 0 && mangled.length === 0,
      nothingOutsideRead: leaks.length === 0,
    },
    problems: {
      deaths: deaths.slice(0, 10),
      serverErrors: serverErrors.slice(0, 10),
      indexDiff,
      badHashes: badHashes.slice(0, 10),
      lostEdits: lostEdits.slice(0, 10),
      mangled,
      leaks: leaks.slice(0, 10),
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (values.keep) log(`kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
  return Object.values(result.checks).every(Boolean) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    log(`soak failed to run: ${(error as Error).stack ?? error}`);
    process.exit(2);
  },
);
