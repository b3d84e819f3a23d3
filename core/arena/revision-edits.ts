import { z } from 'zod';
import {
  type Change,
  type Claim,
  claimIdSchema,
  evidenceSchema,
  type ProposalAnswer,
  type RevisionAnswer,
} from './answers';

/**
 * A live revision as the model writes it: what changed against the agent's current version, not the
 * whole proposal again. Rewriting a 250-word proposal with its claims and evidence to change two
 * paragraphs was most of an arena's output (and output is the dear part); an editor sends its
 * changes. The body's paragraphs are numbered in the materials every request reads, so an edit
 * names a paragraph by its number. The engine applies the edits to the current version and logs
 * the whole revised proposal (`RevisionAnswer`), so the log, the replay scripts and everything that
 * reads a revision see the same shape as before.
 *
 * The critiques a revision answers are given once each, by id, with a line saying what in this
 * version answers it (`answered`), rather than twice: as a change citing the critique and again
 * in a list of the critiques answered. Each line becomes both: a change whose reason is that
 * critique, and the critique listed as addressed. `changes` keeps every other change (an idea
 * adopted, a reason of one's own, a critique of another agent's proposal).
 */

const text = (what: string) => z.string().trim().min(1).describe(what);
export const BODY_EDIT_OPS = ['replace', 'insertAfter', 'delete'] as const;

export const bodyEditSchema = z.strictObject({
  op: z
    .enum(BODY_EDIT_OPS)
    .describe('replace paragraph `at`, insert a paragraph after paragraph `at` (0: before the first), or delete it'),
  at: z.number().int().min(0).max(999).describe('a paragraph number of your current version, as the materials show it'),
  paragraph: text('the new paragraph, in full (for replace and insertAfter)').optional(),
});
export type BodyEdit = z.output<typeof bodyEditSchema>;

/**
 * A claim as a revision gives it: a new one in full; a changed one by its id with what changes (its
 * text, its evidence, or both, each in full), as a title is given only when it changes. Answering
 * "k2 has no support" by adding evidence need not write k2's sentence again.
 */
export const claimEditSchema = z.strictObject({
  id: claimIdSchema.describe('the claim id: one of yours to change it (it keeps its id), a new one to add a claim'),
  text: text('the claim in one sentence: for a new claim, or when it changes').optional(),
  evidence: z
    .array(evidenceSchema)
    .optional()
    .describe('what supports it, the whole list: for a new claim (empty when nothing does yet), or when it changes'),
});
export type ClaimEdit = z.output<typeof claimEditSchema>;

/**
 * Any other change, with its one reason beside it rather than inside a `because` object: an idea
 * adopted from another agent, a reason of one's own, or a critique of another agent's proposal.
 */
export const changeEditSchema = z.strictObject({
  what: text('what changed, in a sentence'),
  adopted: text('the id of the agent whose idea you took up').optional(),
  own: text('or your own reason, in a sentence').optional(),
  critique: text("or the id of a critique of another agent's proposal that led to it").optional(),
});
export type ChangeEdit = z.output<typeof changeEditSchema>;
const REASONS = ['adopted', 'own', 'critique'] as const;

export const revisionEditsSchema = z.strictObject({
  title: text('the new title, only when it changes').optional(),
  summary: text('the new summary, only when it changes').optional(),
  bodyEdits: z
    .array(bodyEditSchema)
    .describe(
      'the changes to your body, each naming a paragraph by its number in your current version; empty when the body stays as it is',
    ),
  claims: z
    .array(claimEditSchema)
    .describe(
      'the claims that are new or changed (a changed one by its id with what changes); empty when none changed',
    ),
  dropClaims: z.array(claimIdSchema).optional().describe('the ids of claims you withdraw'),
  confidence: z.number().min(0).max(1).describe('how sure you are now that this is the best answer, 0 to 1'),
  answered: z
    .record(z.string(), text('what in this version answers it, in a line'))
    .describe('the critiques of your proposal this version answers, by id (c2-ben-1), each with what answers it'),
  changes: z
    .array(changeEditSchema)
    .describe('every other change from your previous version, each with its reason: an idea adopted, your own reason'),
});
export type RevisionEdits = z.output<typeof revisionEditsSchema>;

/** A body's paragraphs: the runs of text between blank lines. */
export function paragraphsOf(body: string): string[] {
  return body
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** The body as the materials show it: each paragraph after its number, so an edit can name it. */
export function numberedBody(body: string): string {
  return paragraphsOf(body)
    .map((p, i) => `¶${i + 1} ${p}`)
    .join('\n\n');
}

export type Applied = { ok: true; value: RevisionAnswer } | { ok: false; problems: string[] };

function applyBody(body: string, edits: readonly BodyEdit[], problems: string[]): string {
  if (edits.length === 0) return body;
  const paragraphs = paragraphsOf(body);
  const n = paragraphs.length;
  const replaced = new Map<number, string>();
  const deleted = new Set<number>();
  const inserted = new Map<number, string[]>();
  edits.forEach((edit, i) => {
    const where = `bodyEdits[${i}]`;
    if (edit.op === 'delete' && edit.paragraph !== undefined) problems.push(`${where}: a delete takes no paragraph`);
    else if (edit.op !== 'delete' && edit.paragraph === undefined)
      problems.push(`${where}: ${edit.op} needs the new paragraph`);
    else if (edit.at > n) problems.push(`${where}.at: your current version has ${n} paragraph(s), no ¶${edit.at}`);
    else if (edit.op === 'insertAfter')
      inserted.set(edit.at, [...(inserted.get(edit.at) ?? []), edit.paragraph as string]);
    else if (edit.at === 0) problems.push(`${where}.at: paragraphs are numbered from 1 (0 is only for insertAfter)`);
    else if (replaced.has(edit.at) || deleted.has(edit.at)) problems.push(`${where}: ¶${edit.at} is edited twice`);
    else if (edit.op === 'replace') replaced.set(edit.at, edit.paragraph as string);
    else deleted.add(edit.at);
  });
  const out = [...(inserted.get(0) ?? [])];
  paragraphs.forEach((p, i) => {
    const at = i + 1;
    if (!deleted.has(at)) out.push(replaced.get(at) ?? p);
    out.push(...(inserted.get(at) ?? []));
  });
  if (out.length === 0) problems.push('bodyEdits: they leave the body empty');
  return out.join('\n\n');
}

function applyClaims(claims: readonly Claim[], edits: RevisionEdits, problems: string[]): Claim[] {
  const known = new Set(claims.map((c) => c.id));
  const dropped = new Set<string>();
  (edits.dropClaims ?? []).forEach((id, i) => {
    if (!known.has(id)) problems.push(`dropClaims[${i}]: your current version has no claim "${id}"`);
    dropped.add(id);
  });
  const was = new Map(claims.map((c) => [c.id, c]));
  const listed = new Map<string, Claim>();
  const added: Claim[] = [];
  edits.claims.forEach((c, i) => {
    const old = was.get(c.id);
    if (listed.has(c.id) || added.some((a) => a.id === c.id))
      problems.push(`claims[${i}]: claim id "${c.id}" is given twice`);
    else if (dropped.has(c.id)) problems.push(`claims[${i}]: claim "${c.id}" is both changed and withdrawn`);
    else if (old && c.text === undefined && c.evidence === undefined)
      problems.push(`claims[${i}]: claim "${c.id}" changes nothing: give its new text, its evidence, or both`);
    else if (!old && c.text === undefined)
      problems.push(`claims[${i}]: "${c.id}" is a new claim (your current version has no such id) and needs its text`);
    else if (old) listed.set(c.id, { id: c.id, text: c.text ?? old.text, evidence: c.evidence ?? old.evidence });
    else added.push({ id: c.id, text: c.text as string, evidence: c.evidence ?? [] });
  });
  const kept = claims.filter((c) => !dropped.has(c.id)).map((c) => listed.get(c.id) ?? c);
  const out = [...kept, ...added];
  if (out.length === 0) problems.push('dropClaims: a proposal keeps at least one claim');
  return out;
}

/** The whole revised proposal: the edits applied to the agent's current version, or what stands in the way. */
export function applyRevisionEdits(current: ProposalAnswer, edits: RevisionEdits): Applied {
  const problems: string[] = [];
  const body = applyBody(current.body, edits.bodyEdits, problems);
  const claims = applyClaims(current.claims, edits, problems);
  const changes = edits.changes.flatMap((c, i): Change[] => {
    const given = REASONS.filter((r) => c[r] !== undefined);
    if (given.length !== 1) {
      problems.push(`changes[${i}]: give one reason, adopted, own or critique (${given.length} given)`);
      return [];
    }
    const reason = given[0] as (typeof REASONS)[number];
    return [{ what: c.what, because: { [reason]: c[reason] } as Change['because'] }];
  });
  if (problems.length > 0) return { ok: false, problems };
  const answered = Object.entries(edits.answered);
  return {
    ok: true,
    value: {
      title: edits.title ?? current.title,
      summary: edits.summary ?? current.summary,
      body,
      claims,
      confidence: edits.confidence,
      changes: [...answered.map(([critique, what]) => ({ what, because: { critique } })), ...changes],
      addressed: answered.map(([critique]) => critique),
    },
  };
}

/** The longest common subsequence of two lists of paragraphs, as pairs of indices. */
function commonParagraphs(a: readonly string[], b: readonly string[]): [number, number][] {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      (table[i] as number[])[j] =
        a[i] === b[j]
          ? ((table[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((table[i + 1] as number[])[j] as number, (table[i] as number[])[j + 1] as number);
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (((table[i + 1] as number[])[j] as number) >= ((table[i] as number[])[j + 1] as number)) i++;
    else j++;
  }
  return pairs;
}

function bodyEdits(before: string, after: string): BodyEdit[] {
  const a = paragraphsOf(before);
  const b = paragraphsOf(after);
  const edits: BodyEdit[] = [];
  // Each gap between two kept paragraphs: its old paragraphs replaced by the new ones, one for one,
  // what is left over deleted or inserted after the last one replaced.
  let i = 0;
  let j = 0;
  for (const [ki, kj] of [...commonParagraphs(a, b), [a.length, b.length] as [number, number]]) {
    const olds = a.slice(i, ki).map((_, k) => i + k + 1);
    const news = b.slice(j, kj);
    const paired = Math.min(olds.length, news.length);
    for (let k = 0; k < paired; k++) edits.push({ op: 'replace', at: olds[k] as number, paragraph: news[k] as string });
    for (const at of olds.slice(paired)) edits.push({ op: 'delete', at });
    const anchor = paired > 0 ? (olds[paired - 1] as number) : i;
    for (const paragraph of news.slice(paired)) edits.push({ op: 'insertAfter', at: anchor, paragraph });
    i = ki + 1;
    j = kj + 1;
  }
  return edits;
}

/**
 * The edits that turn `current` into `next`: what a model that revises by editing sends. Claims
 * keep the order of the current version, new ones after them (a revision cannot reorder claims,
 * and nothing in the arena reads their order); applied, the changes answering a critique come
 * before the others. A critique listed as addressed with no change citing it has no live form (a
 * live revision answers a critique with what answers it) and is refused with an error.
 */
export function revisionEdits(current: ProposalAnswer, next: RevisionAnswer): RevisionEdits {
  const before = new Map(current.claims.map((c) => [c.id, c]));
  const after = new Set(next.claims.map((c) => c.id));
  const dropped = current.claims.filter((c) => !after.has(c.id)).map((c) => c.id);
  // Each critique answered goes with the first change citing it; the changes left are the others.
  const answered: Record<string, string> = {};
  const others = [...next.changes];
  for (const id of new Set(next.addressed)) {
    const at = others.findIndex((c) => 'critique' in c.because && c.because.critique === id);
    if (at < 0)
      throw new Error(`${id} is listed as answered without a change citing it: a live revision cannot say that`);
    answered[id] = (others.splice(at, 1)[0] as RevisionAnswer['changes'][number]).what;
  }
  return {
    ...(next.title !== current.title ? { title: next.title } : {}),
    ...(next.summary !== current.summary ? { summary: next.summary } : {}),
    bodyEdits: next.body === current.body ? [] : bodyEdits(current.body, next.body),
    claims: next.claims.flatMap((c): ClaimEdit[] => {
      const was = before.get(c.id);
      if (!was) return [c];
      const text = c.text !== was.text;
      const evidence = JSON.stringify(c.evidence) !== JSON.stringify(was.evidence);
      return text || evidence
        ? [{ id: c.id, ...(text ? { text: c.text } : {}), ...(evidence ? { evidence: c.evidence } : {}) }]
        : [];
    }),
    ...(dropped.length > 0 ? { dropClaims: dropped } : {}),
    confidence: next.confidence,
    answered,
    changes: others.map((c) => ({ what: c.what, ...c.because })),
  };
}
