// A persona keeps one colour wherever it appears (every debate, transcript, map and chart), taken
// from its id rather than from its place in a debate's list, so the same persona is not red in one
// debate and blue in the next. The colours stay between cyan and magenta and away from the greens
// and reds that mean YES/NO, the amber of warnings and the accent blue of the primary crux.

/**
 * The palette: hue, saturation, and a light- and a dark-theme lightness. Chosen so that any two
 * differ clearly in both themes (CIE ΔE ≥ 19, the first nine ≥ 24), each sits far from the YES/NO,
 * warning and accent colours (ΔE ≥ 30), and each reads as text at 4.5:1 or more on the themes'
 * backgrounds (light tones on #fff/#fbfbfa/#f1f1ef, dark tones on #121316/#17181b/#202126).
 * tests/renderer/persona-colour.test.ts holds it to all three.
 */
export const PALETTE = [
  [284, 65, 34, 78],
  [188, 80, 22, 62],
  [328, 20, 43, 86],
  [324, 80, 43, 62],
  [208, 65, 40, 62],
  [276, 80, 43, 70],
  [264, 20, 22, 66],
  [304, 80, 40, 62],
  [328, 50, 37, 62],
  [304, 80, 22, 74],
  [212, 80, 22, 82],
  [312, 50, 43, 82],
] as const satisfies readonly (readonly [number, number, number, number])[];

/**
 * The debaters that ship with the app, each with a palette entry of its own: a hash of nine ids
 * into a dozen colours gave the four a new debate starts with only two colours between them.
 */
export const BUILT_IN: Readonly<Record<string, number>> = {
  'end-user-advocate': 0,
  ethicist: 1,
  'field-researcher': 2,
  historian: 3,
  investor: 4,
  'optimist-engineer': 5,
  regulator: 6,
  'skeptical-economist': 7,
  'systems-thinker': 8,
};

/** FNV-1a: a cheap, stable hash (the same id gives the same colour in every session). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function css(slot: number): string {
  const [h, s, light, dark] = PALETTE[slot % PALETTE.length] as (typeof PALETTE)[number];
  return `light-dark(hsl(${h} ${s}% ${light}%), hsl(${h} ${s}% ${dark}%))`;
}

function slotOf(personaId: string): number {
  return BUILT_IN[personaId] ?? hash(personaId) % PALETTE.length;
}

/** The persona's colour, as a CSS colour that follows the theme (`light-dark()`). */
export function personaColour(personaId: string): string {
  return css(slotOf(personaId));
}

/**
 * Colours for the personas one view shows together: a built-in debater keeps its own, any other
 * persona its hashed one unless a persona already shown holds it, then the next free entry (taken
 * in id order, so the same set of personas always gets the same colours).
 */
export function personaColours(personaIds: Iterable<string>): (personaId: string) => string {
  const unique = [...new Set(personaIds)];
  const slots = new Map<string, number>();
  const taken = new Set<number>();
  for (const id of unique) {
    const fixed = BUILT_IN[id];
    if (fixed === undefined) continue;
    slots.set(id, fixed);
    taken.add(fixed);
  }
  for (const id of unique.filter((x) => !slots.has(x)).sort()) {
    let slot = slotOf(id);
    for (let i = 0; i < PALETTE.length && taken.has(slot); i++) slot = (slot + 1) % PALETTE.length;
    slots.set(id, slot);
    taken.add(slot);
  }
  return (id) => css(slots.get(id) ?? slotOf(id));
}

/**
 * One theme's half of a persona colour: charts draw SVG attributes, where `light-dark()` may not
 * resolve, so they take the half for the theme shown now.
 */
export function forTheme(colour: string, dark: boolean): string {
  const both = /^light-dark\((hsl\([^)]*\)),\s*(hsl\([^)]*\))\)$/.exec(colour);
  if (!both) return colour;
  return (dark ? both[2] : both[1]) as string;
}
