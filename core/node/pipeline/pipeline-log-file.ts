import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ideaFile } from '../../idea/layout';
import { foldLog, formatEntry, type IdeaPipeline, logHeader, type PipelineEntry, parseLog } from '../../pipeline/log';
import { LinkRefusedError, readTextInside } from '../fs/read-inside';
import { UserError } from '../workspace/workspace';

/** Where an idea's pipeline log lives (a file of the idea, shown in its file list like any note). */
export function pipelineLogPath(slug: string): string {
  return ideaFile(slug, 'pipeline.md');
}

/** The local day of a moment (the daily budget is a local day's). */
export function localDay(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** The first line of a log the pipeline wrote (`logHeader`): a file without it is someone else's. */
const HEADER_MARK = '# Pipeline log:';

/** Where a write of the log landed: the watcher's echo of it is the app's own (`Workspace.recordOwnWrite`). */
export interface AppendOutcome {
  path: string;
  size: number;
  mtimeMs: number;
}

const codeOf = (error: unknown) => (error as { code?: string }).code;

/** Opens the log, refusing a link in its place (the kernel refuses it under O_NOFOLLOW). */
function openLog(abs: string, rel: string, flags: number): number {
  try {
    return openSync(abs, flags | (constants.O_NOFOLLOW ?? 0), 0o644);
  } catch (error) {
    if (codeOf(error) === 'ELOOP')
      throw new LinkRefusedError(rel, 'is a symbolic link; Crucible does not write through links');
    throw error;
  }
}

/**
 * Appends one entry to an idea's log (creating it with its header), flushed to disk before the
 * pipeline goes on: it is the pipeline's memory across a restart. Nothing is written through a link
 * (the idea's folder must be a real folder inside the workspace, the log is opened with O_NOFOLLOW).
 * The log is created with O_EXCL, so of two processes starting it at once only one writes the
 * header. An existing file is appended to only if it starts with the header: a researcher's own
 * note named pipeline.md is refused, never written into. A last line left without its newline (an
 * edit by hand) gets one first, so the entry starts a line of its own.
 */
export function appendEntry(root: string, slug: string, title: string, entry: PipelineEntry): AppendOutcome {
  const rel = pipelineLogPath(slug);
  const folder = join(root, 'ideas', slug);
  if (realpathSync(folder) !== join(realpathSync(root), relative(resolve(root), folder)))
    throw new LinkRefusedError(
      `ideas/${slug}`,
      'is a symbolic link, or lies under one; Crucible does not write through links',
    );
  const abs = join(root, rel);
  let fd: number;
  let prefix = '';
  try {
    fd = openLog(abs, rel, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
    prefix = logHeader(title);
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') throw error;
    fd = openLog(abs, rel, constants.O_RDWR | constants.O_APPEND);
    try {
      prefix = existingPrefix(fd, rel, title);
    } catch (refused) {
      closeSync(fd);
      throw refused;
    }
  }
  try {
    writeSync(fd, `${prefix}${formatEntry(entry)}`);
    fsyncSync(fd);
    const stat = fstatSync(fd);
    return { path: rel, size: stat.size, mtimeMs: stat.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** What goes before the entry in an existing log: its header if it is empty, a newline if its last line lacks one. */
function existingPrefix(fd: number, rel: string, title: string): string {
  const stat = fstatSync(fd);
  if (!stat.isFile()) throw new UserError(`${rel} is not a regular file; the pipeline writes its log only to a file`);
  // Empty: created by another process that has not written its header yet, or emptied by hand.
  if (stat.size === 0) return logHeader(title);
  const head = Buffer.alloc(HEADER_MARK.length);
  readSync(fd, head, 0, head.length, 0);
  if (head.toString('utf8') !== HEADER_MARK)
    throw new UserError(
      `${rel} is not a pipeline log (its first line does not start with "${HEADER_MARK}"): the pipeline does not write into a note of yours; rename that file and the pipeline goes on with this idea`,
    );
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, stat.size - 1);
  return last[0] === 0x0a ? '' : '\n';
}

export function readEntries(root: string, slug: string): PipelineEntry[] {
  const rel = pipelineLogPath(slug);
  if (!existsSync(join(root, rel))) return [];
  return parseLog(readTextInside(root, rel), rel);
}

/**
 * Every idea folder holding a pipeline log, folded; logs that did not change since the last call
 * are not read again. A damaged log is reported by file and line, and its idea left alone.
 */
export class PipelineLogs {
  private readonly cache = new Map<string, { size: number; mtimeMs: number; pipeline: IdeaPipeline }>();

  constructor(private readonly root: string) {}

  all(): { pipelines: Map<string, IdeaPipeline>; problems: string[] } {
    const pipelines = new Map<string, IdeaPipeline>();
    const problems: string[] = [];
    let slugs: string[] = [];
    try {
      slugs = readdirSync(join(this.root, 'ideas'));
    } catch {
      return { pipelines, problems };
    }
    for (const slug of slugs) {
      if (slug.startsWith('_') || slug.startsWith('.')) continue;
      const abs = join(this.root, pipelineLogPath(slug));
      const stat = statSync(abs, { throwIfNoEntry: false });
      if (!stat?.isFile()) {
        this.cache.delete(slug);
        continue;
      }
      const known = this.cache.get(slug);
      if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) {
        pipelines.set(slug, known.pipeline);
        continue;
      }
      try {
        const pipeline = foldLog(readEntries(this.root, slug));
        this.cache.set(slug, { size: stat.size, mtimeMs: stat.mtimeMs, pipeline });
        pipelines.set(slug, pipeline);
      } catch (error) {
        this.cache.delete(slug);
        problems.push((error as Error).message);
      }
    }
    return { pipelines, problems };
  }
}
