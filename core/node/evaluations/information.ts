/**
 * Questions asked and answered in a `development.md` (format of templates/development.md): each
 * question is a `### Q: …` heading; its answer is the text up to the next heading, and an empty body
 * or `_Unanswered._` means not answered yet. This is the evaluation's information completeness.
 */
export function developmentProgress(markdown: string): { asked: number; answered: number } {
  const sections = markdown.split(/^###\s+Q:\s*/m).slice(1);
  let answered = 0;
  for (const section of sections) {
    const body = section
      .split('\n')
      .slice(1)
      .join('\n')
      .split(/^#{1,6}\s/m)[0]
      ?.replace(/<!--[\s\S]*?-->/g, '')
      .trim();
    if (body && !/^_?unanswered\.?_?$/i.test(body)) answered++;
  }
  return { asked: sections.length, answered };
}
