/**
 * The words of a markdown body that search should see: the body without its complete HTML comments.
 * A comment is never shown when the file is rendered, and in an idea's files it holds the app's own
 * metadata (each development question's `asked: …; source: ai; gap: …` line) or a template's
 * guidance: matching those would make words like "ai" or "gap" hit every idea that has a development
 * log, and would show snippets of text the researcher never sees. An opening `<!--` with no closing
 * `-->` is left as it is, so a stray one never hides the rest of a note from search.
 */
export function searchableText(body: string): string {
  let at = body.indexOf('<!--');
  // A body without a comment (most READMEs and notes) is returned as it is, without a copy.
  if (at < 0) return body;
  let out = '';
  let from = 0;
  while (at >= 0) {
    const end = body.indexOf('-->', at + 4);
    if (end < 0) break;
    // A space keeps the words on either side of the comment apart.
    out += `${body.slice(from, at)} `;
    from = end + 3;
    at = body.indexOf('<!--', from);
  }
  return from === 0 ? body : out + body.slice(from);
}
