import { useEffect, useState } from 'react';

/**
 * Routes live in the address's hash (`#/idea/<slug>`, `#/transcript/debate/<id>?m=12`), so a deep
 * link works the same in the desktop app and in browser mode and survives a reload.
 */
export interface Route {
  /** The first segment: `library`, `idea`, `debate` … */
  view: string;
  /** The segments after it, decoded. */
  params: string[];
  query: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const [path = '', search = ''] = raw.split('?', 2);
  const segments = path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  return { view: segments[0] ?? 'library', params: segments.slice(1), query: new URLSearchParams(search) };
}

/** The hash for a route: `href('idea', slug)` → `#/idea/<slug>`; a query as the last argument. */
export function href(view: string, ...rest: (string | Record<string, string | number | undefined>)[]): string {
  const segments = [view];
  let query = '';
  for (const part of rest) {
    if (typeof part === 'string') segments.push(encodeURIComponent(part));
    else {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(part)) if (v !== undefined) params.set(k, String(v));
      const text = params.toString();
      if (text) query = `?${text}`;
    }
  }
  return `#/${segments.join('/')}${query}`;
}

export function navigate(to: string): void {
  window.location.hash = to.startsWith('#') ? to.slice(1) : to;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
