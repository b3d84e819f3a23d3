import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { htmlDocument } from '../../export/markdown-html';
import { ideaFile } from '../../idea/layout';
import { recordIdProblem, slugProblem } from '../../idea/names';
import { DebateService } from '../debates/debate-service';
import { insideRoot } from '../fs/inside-root';
import { readTextInside } from '../fs/read-inside';
import { parseMarkdown } from '../markdown';
import { UserError, type Workspace } from '../workspace/workspace';
import { chromiumPrinter } from './chromium';
import type { PdfPrinter } from './pdf-printer';

export const EXPORT_FORMATS = ['md', 'html', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What a cancelled export says (the page shows it as a cancel, not as an error). */
export const EXPORT_CANCELLED = 'the export was cancelled: nothing was written';

/**
 * Exports an idea's synthesis, or a debate's transcript, as Markdown, self-contained HTML (inline
 * CSS, nothing fetched) or PDF printed from that HTML. It never overwrites a file at `out`. PDFs are
 * printed by `options.printPdf` (the desktop app passes Electron's), else by headless Chromium.
 * `options.signal` cancels a PDF's printing (Markdown and HTML take no time worth cancelling).
 */
export async function exportDocument(
  ws: Workspace,
  source: { slug?: string; debate?: string },
  format: ExportFormat,
  out: string,
  options: { printPdf?: PdfPrinter; signal?: AbortSignal } = {},
): Promise<{ path: string; bytes: number }> {
  if (existsSync(out))
    throw new UserError(`${out} already exists; export never overwrites a file (choose another --out)`);
  if (!existsSync(dirname(out))) throw new UserError(`the folder of ${out} does not exist`);
  let rel: string;
  if (source.debate) {
    const problem = recordIdProblem(source.debate, 'debate');
    if (problem !== null) throw new UserError(`--debate "${source.debate}" ${problem}`);
    rel = new DebateService(ws).logPathOf(source.debate).replace(/\.jsonl$/, '.md');
  } else if (source.slug) {
    const problem = slugProblem(source.slug);
    if (problem !== null) throw new UserError(`"${source.slug}" ${problem}`);
    ws.show(source.slug); // an idea the index does not know is refused by name, before any path is built
    rel = ideaFile(source.slug, 'synthesis.md');
    if (!existsSync(join(ws.root, rel)))
      throw new UserError(`"${source.slug}" has no synthesis yet (run: npm run cli -- evaluate ${source.slug})`);
  } else throw new UserError('export: name an idea (its synthesis) or --debate ID (its transcript)');
  const abs = insideRoot(ws.root, rel);
  if (abs === null) throw new UserError(`${rel} is outside the workspace; export reads only the workspace's files`);
  if (!existsSync(abs)) throw new UserError(`${rel} does not exist yet`);
  // Read under the link rule: a synthesis.md or transcript replaced by a link is refused, not followed.
  return writeExport(readTextInside(ws.root, rel), rel, format, out, options);
}

/**
 * Writes a Markdown document as `format` at `out` (never over a file): as it is, as self-contained
 * HTML, or as a PDF printed from that HTML. `rel` names where it came from, in the HTML's byline.
 */
export async function writeExport(
  markdown: string,
  rel: string,
  format: ExportFormat,
  out: string,
  options: { printPdf?: PdfPrinter; signal?: AbortSignal } = {},
): Promise<{ path: string; bytes: number }> {
  const { signal } = options;
  if (existsSync(out))
    throw new UserError(`${out} already exists; export never overwrites a file (choose another --out)`);
  if (!existsSync(dirname(out))) throw new UserError(`the folder of ${out} does not exist`);
  if (format === 'md') {
    writeFileSync(out, markdown, { flag: 'wx' });
    return { path: out, bytes: Buffer.byteLength(markdown) };
  }
  const { body, data } = parseMarkdown(markdown);
  const title = /^#\s+(.+)$/m.exec(body)?.[1] ?? rel;
  const meta = [
    data.kind === 'synthesis'
      ? `Evaluation ${String(data.evaluationId)} · locked by ${String(data.lockReason)} · ${String(data.completedAt)}`
      : data.kind === 'evaluation-transcript'
        ? `Evaluation ${String(data.evaluation ?? '')} · ${String(data.status ?? '')}`
        : data.kind === 'arena-transcript'
          ? `Arena ${String(data.arena ?? '')} · ${String(data.status ?? '')}`
          : `Debate ${String(data.debate ?? '')} · ${String(data.status ?? '')}`,
    `exported by Crucible from ${rel}`,
  ].join(' · ');
  const html = htmlDocument(title, body, meta);
  if (format === 'html') {
    writeFileSync(out, html, { flag: 'wx' });
    return { path: out, bytes: Buffer.byteLength(html) };
  }
  const print = options.printPdf ?? chromiumPrinter;
  let pdf: Uint8Array;
  try {
    if (signal?.aborted) throw new Error('cancelled');
    pdf = await print(html, signal);
  } catch (error) {
    if (signal?.aborted) throw new UserError(EXPORT_CANCELLED);
    throw new UserError((error as Error).message);
  }
  // A print that finished just as the cancel came still writes nothing.
  if (signal?.aborted) throw new UserError(EXPORT_CANCELLED);
  writeFileSync(out, pdf, { flag: 'wx' });
  return { path: out, bytes: pdf.length };
}
