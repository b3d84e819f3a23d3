import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export interface StaticFile {
  body: Buffer;
  type: string;
  /** index.html is never cached (it names the hashed bundles); the bundles may be. */
  cache: string;
}

/**
 * The built renderer, read from one folder. Paths that do not name a file there get index.html
 * when they look like a page (no extension), so the UI's own routes survive a reload; nothing
 * outside the folder is ever read, symbolic links included.
 */
export class StaticFiles {
  private readonly root: string | null;

  constructor(dir: string | null | undefined) {
    this.root = dir && existsSync(join(dir, 'index.html')) ? realpathSync(resolve(dir)) : null;
  }

  /** True when there is a built renderer to serve. */
  get available(): boolean {
    return this.root !== null;
  }

  /** The file for a URL path, or null (not found, or outside the folder). */
  lookup(pathname: string): StaticFile | null {
    if (!this.root) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (decoded.includes('\0') || decoded.includes('\\')) return null;
    const wanted = decoded === '/' || decoded === '' ? '/index.html' : decoded;
    const file = this.inside(wanted) ?? (extname(wanted) === '' ? this.inside('/index.html') : null);
    if (!file) return null;
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const isIndex = file === join(this.root, 'index.html');
    return { body: readFileSync(file), type, cache: isIndex ? 'no-store' : 'public, max-age=3600' };
  }

  private inside(urlPath: string): string | null {
    const root = this.root as string;
    const candidate = resolve(root, `.${urlPath}`);
    if (candidate !== root && !candidate.startsWith(root + sep)) return null;
    try {
      if (!statSync(candidate).isFile()) return null;
      const real = realpathSync(candidate);
      return real.startsWith(root + sep) ? real : null;
    } catch {
      return null;
    }
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The page shown while there is no built renderer: it says so, and what does work. */
export function notBuiltPage(workspace: string, staticDir: string | null | undefined): string {
  const looked = staticDir
    ? `<p>It looked for <code>index.html</code> in <code>${escapeHtml(staticDir)}</code> and found none.</p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Crucible — renderer not built</title></head>
<body>
<h1>Crucible is running, but its user interface is not built yet</h1>
<p>This server is serving the workspace <code>${escapeHtml(workspace)}</code>. There is no page to show here because the
renderer has not been built; once it is, restart this server and this address shows the app.</p>
${looked}
<p>The programming interface works already: <code>POST /rpc/&lt;channel&gt;</code> with a JSON body and the header
<code>Authorization: Bearer &lt;token&gt;</code>, and <code>GET /events</code> for pushed events. The channels are listed in
<code>docs/contract.md</code>.</p>
</body>
</html>
`;
}
