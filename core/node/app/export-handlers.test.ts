import { describe, expect, it } from 'vitest';
import { appPerTest, IDEA, refused } from '../../../tests/helpers/app-harness';
import { type Channel, exportChannels } from '../../contract';
import { EvaluationService } from '../evaluations/evaluation-service';
import { findChromium } from '../export/chromium';
import { Workspace } from '../workspace/workspace';
import type { App } from './create-app';

const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator'];

const answered = new Set<Channel>();
const t = appPerTest('crucible-export-', answered);
const { boot, call } = t;

/** Runs a quick simulated evaluation of IDEA beside the app, so that it has a locked synthesis. */
async function lockSynthesis(app: App): Promise<void> {
  const ws = Workspace.open(t.root);
  try {
    await new EvaluationService(ws).evaluate(IDEA, { mode: 'quick', provider: 'simulated', seed: 1 });
  } finally {
    ws.close();
  }
  await call(app, 'workspace:sync', {});
}

describe('export:document', () => {
  it('hands back a transcript as Markdown and HTML, and a synthesis once an evaluation locked one', async () => {
    const app = await boot();
    const { id } = await call(app, 'debates:start', { ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 3 });
    // Wait for the debate to end (the transcript is written when it stops).
    for (let i = 0; i < 400; i++) {
      const d = await call(app, 'debates:get', { id });
      if (!d.live && d.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const md = await call(app, 'export:document', { source: 'transcript', id, format: 'md' });
    expect(md).toMatchObject({
      fileName: `${id}-transcript.md`,
      encoding: 'utf8',
      mimeType: 'text/markdown;charset=utf-8',
    });
    expect(md.bytes).toBe(Buffer.byteLength(md.content));
    expect(md.content).toMatch(/^---\n[\s\S]*\n---\n/);
    const html = await call(app, 'export:document', { source: 'transcript', id, format: 'html' });
    expect(html.content).toMatch(/^<!doctype html>/);

    const none = await refused(call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'md' }));
    expect(none.code).toBe('user_error');
    expect(none.message).toContain('has no synthesis yet');

    await lockSynthesis(app);
    const synthesis = await call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'html' });
    expect(synthesis.fileName).toBe(`${IDEA}-synthesis.html`);
    expect(synthesis.content).toContain('locked by');
    if (findChromium()) {
      const pdf = await call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'pdf' });
      expect(pdf.encoding).toBe('base64');
      expect(Buffer.from(pdf.content, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  }, 60_000);

  it('prints PDFs with the printer the host gives (the desktop app passes Electron’s), and names its failure', async () => {
    const printed: string[] = [];
    let fail = false;
    const app = await boot({
      printPdf: async (html) => {
        if (fail) throw new Error('the PDF could not be printed: it took longer than 30 s');
        printed.push(html);
        return new TextEncoder().encode('%PDF-1.7 fake');
      },
    });
    await lockSynthesis(app);
    const html = await call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'html' });
    const pdf = await call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'pdf' });
    expect({ ...pdf, content: Buffer.from(pdf.content, 'base64').toString('latin1') }).toEqual({
      fileName: `${IDEA}-synthesis.pdf`,
      mimeType: 'application/pdf',
      encoding: 'base64',
      content: '%PDF-1.7 fake',
      bytes: 13,
    });
    // What was printed is the same self-contained page the HTML export hands back.
    expect(printed).toEqual([html.content]);
    fail = true;
    const refusal = await refused(call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'pdf' }));
    expect([refusal.code, refusal.message]).toEqual([
      'user_error',
      'the PDF could not be printed: it took longer than 30 s',
    ]);
  }, 60_000);

  it('cancels a PDF while it prints: the printer is told at once, and nothing comes back', async () => {
    // A printer that would take a minute, unless its signal stops it.
    const prints: { aborted: boolean }[] = [];
    let printing: () => void = () => {};
    const startedPrinting = new Promise<void>((resolve) => {
      printing = resolve;
    });
    const app = await boot({
      printPdf: (_html, signal) =>
        new Promise((resolve, reject) => {
          const seen = { aborted: false };
          prints.push(seen);
          const timer = setTimeout(() => resolve(new TextEncoder().encode('%PDF-1.7 late')), 60_000);
          signal?.addEventListener('abort', () => {
            seen.aborted = true;
            clearTimeout(timer);
            reject(new Error('closed'));
          });
          printing();
        }),
    });
    await lockSynthesis(app);
    const request = { source: 'synthesis', id: IDEA, format: 'pdf' } as const;
    const started = performance.now();
    const exporting = refused(call(app, 'export:document', request));
    await startedPrinting;
    const again = await refused(call(app, 'export:document', request));
    expect([again.code, again.message]).toEqual(['user_error', `${IDEA}-synthesis.pdf is already being exported`]);
    // Another format of the same document is another export, and not cancelled by this one's cancel.
    expect(await call(app, 'export:cancel', { ...request, format: 'html' })).toEqual({ cancelled: false });

    expect(await call(app, 'export:cancel', request)).toEqual({ cancelled: true });
    expect((await exporting).toWire()).toEqual({
      code: 'user_error',
      message: 'the export was cancelled: nothing was written',
    });
    expect(prints).toEqual([{ aborted: true }]);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(await call(app, 'export:cancel', request)).toEqual({ cancelled: false });
  }, 60_000);
});

describe('coverage', () => {
  it('answered every channel of core/contract/export-channels.ts in this file', () => {
    expect(Object.keys(exportChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
