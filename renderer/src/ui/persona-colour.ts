// A persona keeps one colour wherever it appears (every debate, transcript and outcome), derived
// from its id rather than from its place in a debate's list, so the same persona is not red in one
// debate and blue in the next. Hues stay between cyan and magenta: never the greens and reds that
// mean YES/NO and validated/contradicted, nor the amber of warnings.

const HUES = [190, 204, 218, 232, 246, 260, 274, 288, 302, 316] as const;
/**
 * Two tones per hue (strong and soft), each with a light- and a dark-theme lightness. The
 * lightnesses keep every hue at 4.5:1 or more against the themes' backgrounds (persona names are
 * text): light tones on #fff/#fbfbfa/#f1f1ef, dark tones on #121316/#17181b/#202126.
 */
const TONES = [
  { s: 70, light: 30, dark: 74 },
  { s: 45, light: 35, dark: 84 },
] as const;

/** FNV-1a: a cheap, stable hash (the same id gives the same colour in every session). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The persona's colour, as a CSS colour that follows the theme (`light-dark()`). */
export function personaColour(personaId: string): string {
  const n = hash(personaId);
  const hue = HUES[n % HUES.length] as number;
  const tone = TONES[Math.floor(n / HUES.length) % TONES.length] as (typeof TONES)[number];
  return `light-dark(hsl(${hue} ${tone.s}% ${tone.light}%), hsl(${hue} ${tone.s}% ${tone.dark}%))`;
}
