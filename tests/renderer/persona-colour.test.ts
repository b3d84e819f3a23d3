import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../../core/node/app-root';
import { personaColour, personaColours } from '../../renderer/src/ui/persona-colour';
import { AGENTS, councilColour } from '../../renderer/src/views/council/words';

// Persona colours as the themes draw them: every shipped debater told apart from every other, none
// near the colours that mean YES/NO, a warning or the primary crux, all readable as text.

type Rgb = [number, number, number];

function hsl(h: number, s: number, l: number): Rgb {
  const sat = s / 100;
  const light = l / 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = sat * Math.min(light, 1 - light);
  const f = (n: number) => light - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0), f(8), f(4)];
}

function hex(text: string): Rgb {
  return [1, 3, 5].map((i) => Number.parseInt(text.slice(i, i + 2), 16) / 255) as Rgb;
}

/** The light and the dark half of a `light-dark(hsl(…), hsl(…))` colour. */
function halves(css: string): { light: Rgb; dark: Rgb } {
  const parts = [...css.matchAll(/hsl\((\d+) (\d+)% (\d+)%\)/g)].map((m) =>
    hsl(Number(m[1]), Number(m[2]), Number(m[3])),
  );
  if (parts.length !== 2) throw new Error(`not a light-dark colour: ${css}`);
  return { light: parts[0] as Rgb, dark: parts[1] as Rgb };
}

const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
function luminance([r, g, b]: Rgb): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}
function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
/** CIE76 ΔE between two sRGB colours: about 2 is barely visible, 20 and more clearly different. */
function deltaE(a: Rgb, b: Rgb): number {
  const lab = ([r, g, bl]: Rgb) => {
    const [R, G, B] = [linear(r), linear(g), linear(bl)];
    const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
    const x = f((0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047);
    const y = f(0.2126 * R + 0.7152 * G + 0.0722 * B);
    const z = f((0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883);
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
  };
  const [p, q] = [lab(a), lab(b)];
  return Math.hypot(...p.map((v, i) => v - (q[i] as number)));
}

const css = readFileSync(join(appRoot(), 'renderer/src/styles.css'), 'utf8');
/** A theme variable's value in the light (first) and dark (second) block of styles.css. */
function themeVar(name: string): { light: Rgb; dark: Rgb } {
  const values = [...css.matchAll(new RegExp(`${name}:\\s*(#[0-9a-f]{6})`, 'gi'))].map((m) => hex(m[1] as string));
  if (values.length < 2) throw new Error(`${name} is not set in both themes`);
  return { light: values[0] as Rgb, dark: values[1] as Rgb };
}

const folder = join(appRoot(), 'resources/personas');
const DEBATERS = readdirSync(folder)
  .filter((f) => /^role: debater$/m.test(readFileSync(join(folder, f), 'utf8')))
  .map((f) => f.replace(/\.md$/, ''))
  .sort();

describe('persona colours', () => {
  it('tells every shipped debater apart from every other, in both themes', () => {
    expect(DEBATERS.length).toBeGreaterThanOrEqual(9);
    const close: string[] = [];
    for (const [i, a] of DEBATERS.entries()) {
      for (const b of DEBATERS.slice(i + 1)) {
        const [x, y] = [halves(personaColour(a)), halves(personaColour(b))];
        const d = Math.min(deltaE(x.light, y.light), deltaE(x.dark, y.dark));
        if (d < 20) close.push(`${a} ~ ${b} (ΔE ${d.toFixed(1)})`);
      }
    }
    expect(close).toEqual([]);
  });

  it('keeps clear of the YES/NO, warning and primary-crux colours and reads as text in both themes', () => {
    const reserved = ['--ok', '--danger', '--warn', '--accent', '--cat-2', '--cat-3'].map((name) => ({
      name,
      ...themeVar(name),
    }));
    const backgrounds = ['--bg', '--bg-raised', '--bg-sunken'].map(themeVar);
    const problems: string[] = [];
    for (const id of [...DEBATERS, 'a-custom-persona', 'council-critic']) {
      const c = halves(personaColour(id));
      for (const r of reserved) {
        const d = Math.min(deltaE(c.light, r.light), deltaE(c.dark, r.dark));
        if (d < 25) problems.push(`${id} near ${r.name} (ΔE ${d.toFixed(1)})`);
      }
      for (const bg of backgrounds) {
        if (contrast(c.light, bg.light) < 4.5)
          problems.push(`${id} light contrast ${contrast(c.light, bg.light).toFixed(2)}`);
        if (contrast(c.dark, bg.dark) < 4.5)
          problems.push(`${id} dark contrast ${contrast(c.dark, bg.dark).toFixed(2)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives two personas of one view that hash alike different colours, and the shipped ones their own', () => {
    // Two made-up persona ids with the same hashed colour.
    const ids = Array.from({ length: 60 }, (_, i) => `custom-${i}`);
    const pair = ids.flatMap((a, i) =>
      ids
        .slice(i + 1)
        .filter((b) => personaColour(a) === personaColour(b))
        .map((b) => [a, b]),
    )[0];
    if (!pair) throw new Error('no two made-up ids share a colour');
    const [a, b] = pair as [string, string];
    const shown = [a, b, 'ethicist', 'historian'];
    const colour = personaColours(shown);
    expect(new Set(shown.map(colour)).size).toBe(4);
    expect(colour('ethicist')).toBe(personaColour('ethicist'));
    expect(colour('historian')).toBe(personaColour('historian'));
    // The same set in another order gets the same colours.
    const again = personaColours([...shown].reverse());
    expect(shown.map(again)).toEqual(shown.map(colour));
  });
});

describe('the council’s agents', () => {
  it('get three colours told apart, each its own wherever the council shows it', () => {
    const colours = AGENTS.map(councilColour);
    expect(new Set(colours).size).toBe(AGENTS.length);
    for (const colour of colours) expect(colour).toMatch(/^light-dark\(hsl\(/);
  });
});
