import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  realpathSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ideaFile } from '../../idea/layout';
import { foldLog, formatEntry, type IdeaPipeline, logHeader, type PipelineEntry, parseLog } from '../../pipeline/log';
import { LinkRefusedError, readTextInside } from '../fs/read-inside';

/** Where an idea's pipeline log lives (a file of the idea, shown in its file list like any note). */
export function pipelineLogPath(slug: string): string {
  return ideaFile(slug, 'pipeline.md');
}

/** The local day of a moment (the daily budget is a local day's). */
export function localDay(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/**
 * Appends one entry to an idea's log (creating it with its header), flushed to disk before the
 * pipeline goes on: it is the pipeline's memory across a restart. Opened with O_NOFOLLOW, and the
 * idea's folder must be a real folder inside the workspace: nothing is written through a link.
 */
export function appendEntry(root: string, slug: string, title: string, entry: PipelineEntry): void {
  const rel = pipelineLogPath(slug);
  const folder = join(root, 'ideas', slug);
  if (realpathSync(folder) !== join(realpathSync(root), relative(resolve(root), folder)))
    throw new LinkRefusedError(
      `ideas/${slug}`,
      'is a symbolic link, or lies under one; Crucible does not write through links',
    );
  const abs = join(root, rel);
  const fresh = !existsSync(abs);
  const fd = openSync(
    abs,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
    0o644,
  );
  try {
    writeSync(fd, `${fresh ? logHeader(title) : ''}${formatEntry(entry)}`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
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
