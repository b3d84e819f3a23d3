import { MAX_UPLOAD_BYTES } from '../../../../core/contract';
import type { Host } from '../../api/client';

/**
 * What a drop (or a chosen file) becomes. In the desktop app a dropped file has a real path and the
 * main side copies it (`ideas:captureFile` / `ideas:attach`); in browser mode the page reads its
 * bytes and uploads them (`…Upload`). Images and other binary files become a new idea named after
 * the file with the file as its first asset (the main side decides that from the bytes); dropped
 * plain text becomes an idea whose title is its first line.
 */
export interface Dropped {
  files: File[];
  text: string | null;
}

/** The files and the plain text of a drop. */
export function readDrop(data: DataTransfer | null): Dropped {
  if (!data) return { files: [], text: null };
  const files = Array.from(data.files);
  const text = files.length === 0 ? data.getData('text/plain') || data.getData('text/uri-list') || null : null;
  return { files, text: text?.trim() ? text : null };
}

/** Whether a drag carries something the page can take (files or text), for the drop highlight. */
export function carriesSomething(data: DataTransfer | null): boolean {
  if (!data) return false;
  const types = Array.from(data.types);
  return types.includes('Files') || types.includes('text/plain') || types.includes('text/uri-list');
}

function tooLarge(file: File): Error {
  return new Error(
    `“${file.name}” is ${(file.size / 1024 / 1024).toFixed(1)} MiB; the app takes files up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB this way`,
  );
}

/** A file's bytes as base64 (FileReader does it natively, without a huge string of chars in between). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** A title from dropped text: its first non-empty line, without markdown heading marks, cut at 120 characters. */
export function titleFromText(text: string): string {
  const first = text.split('\n').find((l) => l.trim() !== '') ?? 'Dropped text';
  const clean = first.replace(/^#+\s*/, '').trim();
  return clean.length > 120 ? `${clean.slice(0, 117).trimEnd()}…` : clean;
}

export interface CaptureOutcome {
  slug: string;
  title: string;
  conflict: boolean;
}

/** Makes one idea per dropped file, or one from the dropped text. */
export async function captureDropped(host: Host, dropped: Dropped): Promise<CaptureOutcome[]> {
  const { client } = host;
  const out: CaptureOutcome[] = [];
  if (dropped.files.length === 0) {
    if (!dropped.text) throw new Error('there was nothing to capture in what was dropped (a file or some text)');
    const result = await client.invoke('ideas:capture', { title: titleFromText(dropped.text), text: dropped.text });
    return [{ slug: result.slug, title: result.idea?.title ?? result.slug, conflict: result.conflict }];
  }
  for (const file of dropped.files) {
    const path = host.pathForFile(file);
    let result: Awaited<ReturnType<typeof client.invoke<'ideas:captureFile'>>>;
    if (path) result = await client.invoke('ideas:captureFile', { path });
    else {
      if (file.size > MAX_UPLOAD_BYTES) throw tooLarge(file);
      result = await client.invoke('ideas:captureUpload', { name: file.name, contentBase64: await fileToBase64(file) });
    }
    out.push({ slug: result.slug, title: result.idea?.title ?? file.name, conflict: result.conflict });
  }
  return out;
}

/**
 * Attaches dropped files to an idea (copied into its `assets/`, never overwriting). Dropped text is
 * kept too, as a small markdown file in the assets, so nothing dropped is lost.
 */
export async function attachDropped(host: Host, slug: string, dropped: Dropped): Promise<string[]> {
  const { client } = host;
  const paths: string[] = [];
  if (dropped.files.length === 0) {
    if (!dropped.text) throw new Error('there was nothing to attach in what was dropped (a file or some text)');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
    const bytes = new TextEncoder().encode(dropped.text);
    const result = await client.invoke('ideas:attachUpload', {
      slug,
      name: `dropped-text-${stamp}.md`,
      contentBase64: await fileToBase64(new Blob([bytes])),
    });
    return [result.path];
  }
  for (const file of dropped.files) {
    const path = host.pathForFile(file);
    if (path) paths.push((await client.invoke('ideas:attach', { slug, path })).path);
    else {
      if (file.size > MAX_UPLOAD_BYTES) throw tooLarge(file);
      const result = await client.invoke('ideas:attachUpload', {
        slug,
        name: file.name,
        contentBase64: await fileToBase64(file),
      });
      paths.push(result.path);
    }
  }
  return paths;
}
