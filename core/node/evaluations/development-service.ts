
import { join } from 'node:path';
import { findGaps } from '../../development/gaps';
import { appendQuestions, answerQuestion, type DevelopmentQuestion, readQuestions } from '../../development/questions';
import { developmentRequest } from '../../development/request';
import { ideaFile } from '../../idea/layout';
import { type AbortSignalLike, LlmError } from '../../ports/llm';
import { renderTemplate } from '../../text/template';
import { type Provider, type ProviderName, providerFor } from '../debates/providers';
import { readForEdit, safeWrite } from '../fs/atomic-write';
import { readTextInside } from '../fs/read-inside';
import { parseMarkdown } from '../markdown';
import { loadPersonas } from '../personas/load-personas';
import { logDevelopmentQuestions, recordDevelopmentAnswer } from '../sqlite/development-log-queries';
import { getIdea } from '../sqlite/index-sql';
import { UserError, type Workspace } from '../workspace/workspace';
import { EvaluationService } from './evaluation-service';

export interface DevelopmentResult {
  questions: DevelopmentQuestion[];
  /** Numbers of the questions this session added. */
  added: number[];
  path: string;
  conflict: boolean;
}

/**
 * The development agent: finds what an idea is missing and asks the researcher about it. Questions
 * and answers live in the idea's `development.md` (the researcher may answer there directly too) and
 * in the development log table.
 */
export class DevelopmentService {
  constructor(
    private readonly ws: Workspace,
    private readonly providers: (name: ProviderName, workspace: string, seed: number | null) => Provider = providerFor,
  ) {}

  private paths(slug: string) {
    const idea = getIdea(this.ws.db, slug);
    if (!idea) throw new UserError(`no idea "${slug}" (see: npm run cli -- list)`);
    const rel = ideaFile(slug, 'development.md');
    const abs = join(this.ws.root, rel);
    // Text and hash from one read: an answer saved by hand meanwhile is never taken for this one.
    const read = readForEdit(abs);
    const text =
      read?.text ??
      renderTemplate(
        this.ws.templates.development.text,
        { slug, title: idea.title },
        { file: this.ws.templates.development.file },
      );
    return { idea, rel, abs, text, expected: read?.hash ?? null };
  }

  questions(slug: string): DevelopmentQuestion[] {
    return readQuestions(this.paths(slug).text);
  }

  /**
   * Asks the development agent what the idea is missing and appends its questions. With `signal`,
   * a cancel stops the call (it fails as `cancelled`) and nothing is written, even when the answer
   * arrived just as the cancel did.
   */
  async develop(
    slug: string,
    options: { provider: ProviderName; seed?: number; signal?: AbortSignalLike },
  ): Promise<DevelopmentResult> {
    const { idea, rel, text, expected } = this.paths(slug);
    const readme = parseMarkdown(readTextInside(this.ws.root, ideaFile(slug, 'README.md'))).body;
    const asked = readQuestions(text);
    const current = new EvaluationService(this.ws).current(slug);
    const standing = current
      ? Object.fromEntries(current.scores.map((s) => [s.criterion, { score: s.finalScore, confidence: s.confidence }]))
      : null;
    const gaps = findGaps(readme, this.ws.taxonomy, standing, asked);
    if (gaps.length === 0) return { questions: asked, added: [], path: rel, conflict: false };
    const persona = loadPersonas(this.ws.root).personas.find((p) => p.id === 'developer');
    if (!persona) throw new UserError('the "developer" persona did not load (see resources/personas)');
    const provider = this.providers(options.provider, this.ws.root, options.seed ?? 1);
    const ideaText = `# ${idea.title}\n\n${readme}\n\n## Development so far\n\n${asked.map((q) => `Q: ${q.question}\nA: ${q.answer ?? '(unanswered)'}`).join('\n\n')}`;
    const request = developmentRequest(
      persona,
      ideaText,
      gaps,
      asked,
      this.ws.taxonomy,
      new Date().toISOString().slice(0, 10),
    );
    const answer = await provider.llm.call(options.signal ? { ...request, signal: options.signal } : request);
    if (options.signal?.aborted) throw new LlmError('cancelled', 'the development call was cancelled', answer.calls);
    const today = new Date().toISOString().slice(0, 10);
    const next = appendQuestions(text, answer.value.questions, today);
    const outcome = safeWrite(this.ws.root, rel, next, expected);
    logDevelopmentQuestions(this.ws.db, idea.id, answer.value.questions, 'ai', today);
    this.ws.syncSlugs([slug]);
    const questions = readQuestions(outcome.conflict ? text : next);
    return {
      questions,
      added: outcome.conflict ? [] : questions.slice(asked.length).map((q) => q.number),
      path: outcome.path,
      conflict: outcome.conflict,
    };
  }

  answer(slug: string, number: number, text: string): DevelopmentResult {
    if (text.trim() === '') throw new UserError('an answer needs some text');
    const { idea, rel, text: before, expected } = this.paths(slug);
    const asked = readQuestions(before);
    const question = asked[number - 1];
    if (!question)
      throw new UserError(
        `${rel} has no question ${number} (it has ${asked.length}; see: npm run cli -- develop ${slug})`,
      );
    const after = answerQuestion(before, number, text);
    const outcome = safeWrite(this.ws.root, rel, after, expected);
    recordDevelopmentAnswer(this.ws.db, idea.id, question.question, text.trim(), new Date().toISOString());
    this.ws.syncSlugs([slug]);
    return {
      questions: readQuestions(outcome.conflict ? before : after),
      added: [],
      path: outcome.path,
      conflict: outcome.conflict,
    };
  }
}
