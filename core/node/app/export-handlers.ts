import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { exportChannels } from '../../contract';
import { exportDocument } from '../export/export-document';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';

const MIME: Record<'md' | 'html' | 'pdf', string> = {
  md: 'text/markdown;charset=utf-8',
  html: 'text/html;charset=utf-8',
  pdf: 'application/pdf',
};

/** A file name safe on every system, from an idea slug or a debate id. */
function fileStem(id: string): string {
  return id.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[-.]+|-+$/g, '') || 'export';
}

/**
 * The handlers of the channels in core/contract/export-channels.ts: an idea's synthesis or a
 * debate's transcript rendered as a document and handed back (nothing is written in the
 * workspace), one export of a document and format at a time, cancellable.
 */
export function exportHandlers(ctx: AppContext): AreaHandlers<keyof typeof exportChannels> {
  const { ws, open } = ctx;
  /** The exports running now, by document and format, so that one can be cancelled. */
  const exporting = new Map<string, AbortController>();
  const exportKey = (source: string, id: string, format: string) => `${source}\u0000${id}\u0000${format}`;

  return {
    impl: {
      'export:document': async ({ source, id, format }) => {
        open();
        const fileName = `${fileStem(id)}-${source}.${format}`;
        // exportDocument writes a file (the CLI's way); here it goes to a private temp folder and
        // comes back as content, so nothing lands in the workspace and the page picks where it goes.
        const key = exportKey(source, id, format);
        if (exporting.has(key)) throw new UserError(`${fileName} is already being exported`);
        const controller = new AbortController();
        exporting.set(key, controller);
        const dir = mkdtempSync(join(tmpdir(), 'crucible-export-'));
        try {
          const out = join(dir, fileName);
          await exportDocument(ws, source === 'synthesis' ? { slug: id } : { debate: id }, format, out, {
            printPdf: ctx.options.printPdf,
            signal: controller.signal,
          });
          const bytes = readFileSync(out);
          return {
            fileName,
            mimeType: MIME[format],
            encoding: format === 'pdf' ? ('base64' as const) : ('utf8' as const),
            content: format === 'pdf' ? bytes.toString('base64') : bytes.toString('utf8'),
            bytes: bytes.length,
          };
        } finally {
          exporting.delete(key);
          rmSync(dir, { recursive: true, force: true });
        }
      },
      'export:cancel': ({ source, id, format }) => {
        const controller = exporting.get(exportKey(source, id, format));
        controller?.abort();
        return { cancelled: controller !== undefined };
      },
    },
  };
}
