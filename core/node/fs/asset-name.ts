/**
 * The longest name, in UTF-8 bytes, the app gives a file it stores (an attached asset). File systems
 * allow 255 bytes, and the app adds to a name while writing: `.<name>.crucible-tmp-<12 hex>` (28
 * bytes) for the atomic write, `-<n>` when the name is taken, `.conflict-<stamp>` for a conflict copy.
 * 200 leaves room for all of them.
 */
export const MAX_STORED_NAME_BYTES = 200;
/** An extension longer than this is not kept whole when a name is shortened (it is likely no extension). */
const MAX_KEPT_EXTENSION_BYTES = 32;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Cuts `text` to at most `max` UTF-8 bytes, at a character boundary. */
function cut(text: string, max: number): string {
  let out = '';
  for (const char of text) {
    if (bytes(out) + bytes(char) > max) break;
    out += char;
  }
  return out;
}

/**
 * `stem` + `ext` (ext with its dot, possibly empty) as a name of at most MAX_STORED_NAME_BYTES,
 * shortening the stem and keeping the extension, so a long name is stored rather than refused.
 */
export function storedName(stem: string, ext: string): string {
  if (bytes(stem) + bytes(ext) <= MAX_STORED_NAME_BYTES) return `${stem}${ext}`;
  if (bytes(ext) > MAX_KEPT_EXTENSION_BYTES) return cut(`${stem}${ext}`, MAX_STORED_NAME_BYTES);
  return `${cut(stem, MAX_STORED_NAME_BYTES - bytes(ext))}${ext}`;
}
