import { z } from 'zod';
import {
  captureResultSchema,
  IDEA_FILE_KINDS,
  ideaDetailSchema,
  ideaSummarySchema,
  PROVIDERS,
  searchHitSchema,
} from './entities';
import { slugSchema } from './ids';

/**
 * `ideas:*`: the library (list, read, search), capture from text, a file or an upload, attachments,
 * stage moves, one text file of an idea, every relationship at once (the graph), and the
 * development Q&A. Spread into `channels` of core/contract.ts.
 */

/** The largest file browser mode accepts as an upload, before base64 (24 MiB). */
export const MAX_UPLOAD_BYTES = 24 * 1024 * 1024;

const slug = slugSchema;
const optionalWord = z.string().trim().min(1).max(200).optional();

/** A path on the computer the main side runs on, absolute (POSIX, `C:\…` or `\\server\…`). */
const localPath = z
  .string()
  .min(1, 'needs a file path')
  .max(4096)
  .refine((path) => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\'), {
    message: 'must be an absolute path',
  });

/** A bare file name as a browser reports it for an uploaded file: no folders, nothing hidden. */
const fileName = z
  .string()
  .min(1, 'needs a file name')
  .max(255)
  .refine(
    (name) => !/[/\\]/.test(name) && ![...name].some((c) => c.charCodeAt(0) < 32) && name !== '.' && name !== '..',
    {
      message: 'must be a plain file name (no folders or control characters)',
    },
  );

const upload = {
  name: fileName,
  /** The file's bytes, base64-encoded. */
  contentBase64: z.base64('must be base64').max(Math.ceil(MAX_UPLOAD_BYTES / 3) * 4, 'the file is larger than 24 MiB'),
};

const captureOptions = { type: optionalWord, stage: optionalWord };

export const developmentViewSchema = z.strictObject({
  questions: z.array(
    z.strictObject({
      number: z.number().int().positive(),
      question: z.string(),
      asked: z.string().nullable(),
      source: z.string().nullable(),
      gap: z.string().nullable(),
      answer: z.string().nullable(),
    }),
  ),
  /** Numbers of the questions this call added. */
  added: z.array(z.number().int().positive()),
  /** development.md, or the conflict copy beside it when the researcher edited it meanwhile. */
  path: z.string(),
  conflict: z.boolean(),
});
export type DevelopmentView = z.infer<typeof developmentViewSchema>;

/** Where a note of an imported folder went; `file` is its path inside the folder. */
export const importReportSchema = z.strictObject({
  source: z.string(),
  created: z.array(z.strictObject({ file: z.string(), slug: z.string(), title: z.string() })),
  /** Imported before (same folder name and path, or the same `id`): left as they are. */
  skipped: z.array(z.strictObject({ file: z.string(), slug: z.string(), reason: z.string() })),
  errors: z.array(z.strictObject({ file: z.string(), reason: z.string() })),
  /** Files that are not markdown, and hidden files and folders, left out. */
  ignored: z.number().int().nonnegative(),
});
export type ImportReportView = z.infer<typeof importReportSchema>;

const comparedScore = z.number().nullable();
/** One idea of a comparison; `evaluationId` null: not evaluated (every score null, lists empty). */
export const comparedIdeaSchema = z.strictObject({
  slug: z.string(),
  title: z.string(),
  stage: z.string(),
  evaluationId: z.string().nullable(),
  overallScore: comparedScore,
  /** Category id → score, in the taxonomy's order. */
  categories: z.record(z.string(), comparedScore),
  /** Criterion id → final score. */
  criteria: z.record(z.string(), comparedScore),
  confidence: comparedScore,
  recommendation: z.string().nullable(),
  strengths: z.array(z.string()),
  weaknesses: z.array(z.string()),
  /** The idea changed since its evaluation read it. */
  stale: z.boolean(),
  /** Why its evaluation may no longer hold, one sentence each (empty: nothing says so). */
  staleReasons: z.array(z.string()),
  evaluatedAt: z.string().nullable(),
  /** Cruxes of debates about this idea (their questions). */
  cruxes: z.array(z.string()),
});

export const comparisonSchema = z.strictObject({
  categories: z.array(z.strictObject({ id: z.string(), name: z.string(), weight: z.number() })),
  criteria: z.array(z.strictObject({ id: z.string(), name: z.string(), category: z.string() })),
  ideas: z.array(comparedIdeaSchema),
  /** A crux question that debates of two or more of these ideas reached (compared without case or spacing). */
  sharedCruxes: z.array(z.strictObject({ question: z.string(), slugs: z.array(z.string()) })),
});
export type ComparisonView = z.infer<typeof comparisonSchema>;

export const relationshipViewSchema = z.strictObject({
  source: z.string(),
  target: z.string(),
  type: z.string(),
  strength: z.number().nullable(),
  reason: z.string().nullable(),
});

export const ideasChannels = {
  /** Ideas in the library, optionally filtered by stage, type or tag. */
  'ideas:list': {
    input: z.strictObject({ stage: optionalWord, type: optionalWord, tag: optionalWord }),
    output: z.strictObject({ ideas: z.array(ideaSummarySchema) }),
  },
  /** One idea: its row, README body, files, relationships and the problems in its folder. */
  'ideas:get': { input: z.strictObject({ slug }), output: ideaDetailSchema },
  /** Full-text search over titles, summaries, tags and bodies (words, not query syntax). */
  'ideas:search': {
    input: z.strictObject({
      query: z.string().trim().min(1, 'needs some words to look for').max(500),
      /** The most hits to answer (50 when absent); `total` says how many there are. */
      limit: z.number().int().positive().max(100_000).optional(),
    }),
    output: z.strictObject({
      hits: z.array(searchHitSchema),
      /** Every idea the query matches, however many `hits` holds: the list can say "50 of 80". */
      total: z.number().int().nonnegative(),
    }),
  },
  /** A new idea from a title and text (the capture box). */
  'ideas:capture': {
    input: z.strictObject({
      title: z.string().trim().min(1, 'an idea needs a title').max(300),
      text: z.string().max(1_000_000).optional(),
      summary: z.string().max(1000).optional(),
      tags: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
      ...captureOptions,
    }),
    output: captureResultSchema,
  },
  /** A new idea from a file on this computer (a drop in the desktop app). Not served in browser mode. */
  'ideas:captureFile': {
    input: z.strictObject({ path: localPath, ...captureOptions }),
    output: captureResultSchema,
  },
  /** A new idea from a file's bytes (a drop in browser mode). */
  'ideas:captureUpload': {
    input: z.strictObject({ ...upload, ...captureOptions }),
    output: captureResultSchema,
  },
  /** Copies a file on this computer into an idea's `assets/`. Not served in browser mode. */
  'ideas:attach': {
    input: z.strictObject({ slug, path: localPath }),
    output: z.strictObject({ path: z.string() }),
  },
  /** Stores a file's bytes in an idea's `assets/` (browser mode). */
  'ideas:attachUpload': {
    input: z.strictObject({ slug, ...upload }),
    output: z.strictObject({ path: z.string() }),
  },
  /** Moves an idea to another lifecycle stage (edits only the README's `stage:` and `updated:` lines). */
  'ideas:setStage': {
    input: z.strictObject({ slug, stage: z.string().trim().min(1, 'needs a stage').max(100) }),
    output: z.strictObject({ idea: ideaSummarySchema.nullable(), path: z.string(), conflict: z.boolean() }),
  },

  /** One text file of an idea (a research note, development.md …), by its workspace-relative path. */
  'ideas:file': {
    input: z.strictObject({ slug, path: z.string().trim().min(1, 'needs a file path').max(1000) }),
    output: z.strictObject({
      path: z.string(),
      kind: z.enum(IDEA_FILE_KINDS),
      /** The file's text (frontmatter included), cut at 512 KiB. */
      text: z.string(),
      truncated: z.boolean(),
    }),
  },
  /** Every relationship between ideas (the graph view). */
  'ideas:relationships': {
    input: z.strictObject({}),
    output: z.strictObject({ relationships: z.array(relationshipViewSchema) }),
  },
  /**
   * Asks the classify agent for an idea's type, tags and relationships to other ideas, written into
   * its README's frontmatter (on the settings' provider unless named); the researcher's own links
   * stay. The graph's empty canvas and the idea page offer it.
   */
  'ideas:classify': {
    input: z.strictObject({
      slug,
      provider: z.enum(PROVIDERS).optional(),
      seed: z.number().int().nonnegative().optional(),
    }),
    output: z.strictObject({
      type: z.string(),
      tags: z.array(z.string()),
      /** Tags outside the controlled vocabulary. */
      freeTags: z.array(z.string()),
      /** Every relationship the README now lists, the researcher's own included. */
      relationships: z.array(relationshipViewSchema),
      path: z.string(),
      /** The README changed on disk meanwhile: it is kept and the classified version is `path`. */
      conflict: z.boolean(),
    }),
  },
  /** The development questions of an idea (its development.md) and their answers. */
  'ideas:questions': { input: z.strictObject({ slug }), output: developmentViewSchema },
  /** Asks the development agent for the questions the idea is missing (on the settings' provider unless named). */
  'ideas:develop': {
    input: z.strictObject({
      slug,
      provider: z.enum(PROVIDERS).optional(),
      seed: z.number().int().nonnegative().optional(),
    }),
    output: developmentViewSchema,
  },
  /**
   * Stops the development agent's call for an idea, if one is running: its `ideas:develop` then fails
   * with a `user_error` saying it was cancelled, and nothing is written.
   */
  'ideas:developCancel': {
    input: z.strictObject({ slug }),
    output: z.strictObject({ cancelled: z.boolean() }),
  },
  /** Records the answer to development question `number`. */
  'ideas:answer': {
    input: z.strictObject({
      slug,
      number: z.number().int().positive('must be a question number (1 or more)'),
      text: z.string().trim().min(1, 'an answer needs some text').max(100_000),
    }),
    output: developmentViewSchema,
  },
  /**
   * Imports a folder of markdown notes on this computer (an Obsidian vault, a Zettelkasten) as ideas,
   * never writing to it; every note is reported by its path: created, skipped (imported before) or
   * not imported and why. Not served in browser mode (a page names no folders on disk).
   */
  'ideas:import': {
    input: z.strictObject({ path: localPath, ...captureOptions }),
    output: importReportSchema,
  },
  /** Two to four ideas side by side: their current evaluations' scores, strengths, weaknesses, shared cruxes. */
  'ideas:compare': {
    input: z.strictObject({
      slugs: z
        .array(slug)
        .min(2, 'compare needs at least two ideas')
        .max(4, 'compare takes at most four ideas')
        .refine((s) => new Set(s).size === s.length, 'names an idea twice'),
    }),
    output: comparisonSchema,
  },
} as const;
