import { z } from 'zod';
import { debateIdSchema, slugSchema } from './ids';

/**
 * `export:*`: an idea's synthesis or a debate's transcript as a document for the page to save.
 * Spread into `channels` of core/contract.ts.
 */

export const EXPORT_DOCUMENT_FORMATS = ['md', 'html', 'pdf'] as const;
export const EXPORT_SOURCES = ['synthesis', 'transcript'] as const;

/** Which document to export: an idea's synthesis (`id` is its slug) or a debate's transcript (its id). */
const exportedDocument = z
  .strictObject({
    source: z.enum(EXPORT_SOURCES),
    /** The idea's slug (synthesis) or the debate's id (transcript). */
    id: z.string().trim().min(1, 'needs an idea slug or a debate id').max(200),
    format: z.enum(EXPORT_DOCUMENT_FORMATS),
  })
  .superRefine((input, ctx) => {
    const checked = (input.source === 'synthesis' ? slugSchema : debateIdSchema).safeParse(input.id);
    if (!checked.success)
      ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'is not valid', path: ['id'] });
  });

export const exportChannels = {
  /**
   * An idea's synthesis or a debate's transcript as Markdown, self-contained HTML or PDF, handed
   * back for the page to save (text as is; a PDF base64-encoded). Nothing is written in the workspace.
   */
  'export:document': {
    input: exportedDocument,
    output: z.strictObject({
      fileName: z.string(),
      mimeType: z.string(),
      encoding: z.enum(['utf8', 'base64']),
      content: z.string(),
      bytes: z.number().int().nonnegative(),
    }),
  },

  /**
   * Cancels the running `export:document` of this document and format: its printing stops at once
   * and it fails with a `user_error` saying it was cancelled. `cancelled` is false when none ran.
   */
  'export:cancel': {
    input: exportedDocument,
    output: z.strictObject({ cancelled: z.boolean() }),
  },
} as const;
