import { z } from 'zod';

/**
 * The questions of a `development.md` (format in templates/development.md): each is a `### Q: …`
 * heading, an `<!-- asked: …; source: …; gap: … -->` line, then the answer; `_Unanswered._` (or
 * nothing) means not answered yet. Read and edited line by line, so the researcher's own text in the
 * file is never rewritten.
 */
export interface DevelopmentQuestion {
  /** 1-based, in file order: what `develop --answer N` refers to. */
  number: number;
  question: string;
  asked: string | null;
  source: string | null;
  gap: string | null;
  answer: string | null;
}

const HEADING = /^###\s+Q:\s*(.*)$/;
const META = /^<!--\s*asked:\s*([^;]*);\s*source:\s*([^;]*);\s*gap:\s*(.*?)\s*-->\s*$/;
const UNANSWERED = /^_?unanswered\.?_?$/i;

export function readQuestions(markdown: string): DevelopmentQuestion[] {
  const lines = markdown.split('\n');
  const out: DevelopmentQuestion[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = HEADING.exec(lines[i] as string);
    if (!head) continue;
    const meta = META.exec(lines[i + 1] ?? '');
    let j = i + 1 + (meta ? 1 : 0);
    const body: string[] = [];
    while (j < lines.length && !/^#{1,3}\s/.test(lines[j] as string)) body.push(lines[j++] as string);
    const text = body
      .join('\n')
      .replace(/<!--[\s\S]*?-->/g, '')
      .trim();
    out.push({
      number: out.length + 1,
      question: (head[1] ?? '').trim(),
      asked: meta?.[1]?.trim() || null,
      source: meta?.[2]?.trim() || null,
      gap: meta?.[3]?.trim() || null,
      answer: text === '' || UNANSWERED.test(text) ? null : text,
    });
  }
  return out;
}

/** Questions per session, as the seed's development agent asks them: a few that matter most. */
export const QUESTIONS_PER_SESSION = 3;

export const developmentAnswerSchema = z.object({
  questions: z
    .array(
      z.object({
        gap: z.string().min(1).describe('the criterion id or README section it fills in'),
        question: z.string().min(5).describe('one question specific to this idea, ending in "?", under 40 words'),
      }),
    )
    .min(1)
    .max(QUESTIONS_PER_SESSION)
    .describe(`at most ${QUESTIONS_PER_SESSION} questions, the most important first`),
});
export type DevelopmentAnswer = z.infer<typeof developmentAnswerSchema>;

/** New questions appended at the end of the file, each unanswered. */
export function appendQuestions(markdown: string, questions: DevelopmentAnswer['questions'], asked: string): string {
  const blocks = questions.map(
    (q) =>
      `### Q: ${q.question.replace(/\s+/g, ' ').trim()}\n<!-- asked: ${asked}; source: ai; gap: ${q.gap} -->\n\n_Unanswered._\n`,
  );
  const base = markdown.endsWith('\n') ? markdown : `${markdown}\n`;
  return `${base}\n${blocks.join('\n')}`;
}

/** The file with question `number`'s answer set to `answer` (everything else as it was). */
export function answerQuestion(markdown: string, number: number, answer: string): string {
  const lines = markdown.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!HEADING.test(lines[i] as string)) continue;
    seen++;
    if (seen !== number) continue;
    const start = i + 1 + (META.test(lines[i + 1] ?? '') ? 1 : 0);
    let end = start;
    while (end < lines.length && !/^#{1,3}\s/.test(lines[end] as string)) end++;
    const tail = end < lines.length ? [''] : [];
    return [...lines.slice(0, start), '', answer.trim(), ...tail, ...lines.slice(end)].join('\n').replace(/\n*$/, '\n');
  }
  throw new RangeError(`there is no question ${number} (the file has ${seen})`);
}
