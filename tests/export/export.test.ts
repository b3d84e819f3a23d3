import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoot } from '../../core/node/app-root';
import { DebateService } from '../../core/node/debates/debate-service';
import { EvaluationService } from '../../core/node/evaluations/evaluation-service';
import { findChromium } from '../../core/node/export/chromium';
import { exportDocument } from '../../core/node/export/export-document';
import { Workspace } from '../../core/node/workspace/workspace';
import { tempWorkspace } from '../helpers/temp-workspace';

const IDEA = 'llm-judge-calibration';
let root: string;
let cleanup: () => void;
let ws: Workspace;
let debateId: string;

beforeAll(async () => {
  ({ root, cleanup } = tempWorkspace('crucible-export-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  ws = Workspace.open(root);
  ws.sync();
  await new EvaluationService(ws).evaluate(IDEA, { mode: 'standard', provider: 'simulated' });
  debateId = (
    await new DebateService(ws).start({
      ideaSlug: IDEA,
      agents: ['optimist-engineer', 'skeptical-economist', 'regulator'],
      provider: 'simulated',
    })
  ).id;
});
afterAll(() => {
  ws.close();
  cleanup();
});

const chromium = findChromium();
const pdftoppm = ['/usr/bin/pdftoppm', '/usr/local/bin/pdftoppm', '/opt/homebrew/bin/pdftoppm'].find((p) =>
  existsSync(p),
);
if ((!chromium || !pdftoppm) && process.env.CRUCIBLE_REQUIRE_BROWSER) {
  // CI installs both and sets this: there a missing browser is a failure, not a skip.
  throw new Error(`CRUCIBLE_REQUIRE_BROWSER is set but ${!chromium ? 'no Chromium was found' : 'pdftoppm is missing'}`);
}
if (!chromium || !pdftoppm) {
  console.warn(
    `\n*** PDF export tests SKIPPED: ${!chromium ? 'no Chromium/Chrome found (install chromium or set CRUCIBLE_CHROMIUM)' : 'no pdftoppm (install poppler-utils)'} ***\n`,
  );
}

describe('export', () => {
  it('writes the synthesis as Markdown and as self-contained HTML, and never overwrites a file', async () => {
    const md = join(root, 'synthesis-out.md');
    await exportDocument(ws, { slug: IDEA }, 'md', md);
    expect(readFileSync(md, 'utf8')).toBe(readFileSync(join(root, 'ideas', IDEA, 'synthesis.md'), 'utf8'));

    const html = join(root, 'synthesis.html');
    await exportDocument(ws, { slug: IDEA }, 'html', html);
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<style>');
    expect(page).toContain('<h2>Trajectory</h2>');
    expect(page).toMatch(/<table><thead><tr><th>criterion<\/th><th>initial<\/th>/);
    // Nothing is fetched: no scripts, no stylesheets or images from elsewhere.
    expect(page).not.toMatch(/<script|<link|src=|url\(/i);

    writeFileSync(join(root, 'taken.html'), 'mine');
    await expect(exportDocument(ws, { slug: IDEA }, 'html', join(root, 'taken.html'))).rejects.toThrow(
      /never overwrites/,
    );
    expect(readFileSync(join(root, 'taken.html'), 'utf8')).toBe('mine');
  });

  it('exports a debate transcript too', async () => {
    const html = join(root, 'debate.html');
    await exportDocument(ws, { debate: debateId }, 'html', html);
    expect(readFileSync(html, 'utf8')).toContain('Simulated debate.');
  });

  it.skipIf(!chromium || !pdftoppm)('prints a PDF whose pages render', async () => {
    const pdf = join(root, 'synthesis.pdf');
    await exportDocument(ws, { slug: IDEA }, 'pdf', pdf);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    execFileSync(pdftoppm as string, ['-r', '40', '-png', pdf, join(root, 'page')]);
    const pages = readdirSync(root).filter((f) => /^page-\d+\.png$/.test(f));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    // Rendered pages carry ink, not blank paper: a PNG of a text page is well above a blank one's size.
    for (const p of pages) expect(statSync(join(root, p)).size).toBeGreaterThan(3_000);
  });

  it.skipIf(!chromium)('stops printing a PDF when cancelled, and writes nothing', async () => {
    const out = join(root, 'cancelled.pdf');
    const before = await exportDocument(ws, { slug: IDEA }, 'pdf', out, { signal: AbortSignal.abort() }).catch(
      (e: Error) => e,
    );
    expect(String(before)).toContain('the export was cancelled: nothing was written');

    // Cancelled while Chromium starts or prints: the browser is closed and the export fails as cancelled.
    const controller = new AbortController();
    const printing = exportDocument(ws, { slug: IDEA }, 'pdf', out, { signal: controller.signal }).catch(
      (e: Error) => e,
    );
    setTimeout(() => controller.abort(), 300);
    expect(String(await printing)).toContain('the export was cancelled: nothing was written');
    expect(existsSync(out)).toBe(false);
    // The printer works as before for the next export.
    await exportDocument(ws, { slug: IDEA }, 'pdf', out);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
