/**
 * Reads JSON that is still arriving: the beginning of a document a model is writing. Whatever is
 * complete so far comes back as values; a string cut off mid-way comes back as far as it goes (so a
 * long text field can be shown while it is written); open arrays and objects are closed; a key
 * without its value yet, or a number or literal cut off, is left out. Text that can never become
 * JSON gives `undefined`: a draft is a courtesy, never an error.
 */
export function readPartialJson(text: string): unknown {
  const reader = new PartialReader(text);
  try {
    reader.space();
    const value = reader.value();
    return value === CUT ? undefined : value;
  } catch (error) {
    if (error instanceof Unreadable) return undefined;
    throw error;
  }
}

/** The text cannot be the beginning of a JSON document. */
class Unreadable extends Error {}

/** The text ended inside a value that has nothing to show yet (a number, a literal, a key). */
const CUT = Symbol('cut');

const LITERALS: Record<string, unknown> = { true: true, false: false, null: null };

class PartialReader {
  private at = 0;

  constructor(private readonly text: string) {}

  get ended(): boolean {
    return this.at >= this.text.length;
  }

  space(): void {
    while (!this.ended && ' \t\n\r'.includes(this.text[this.at] as string)) this.at++;
  }

  /** One value, or CUT when the text ends before it shows anything. */
  value(): unknown {
    if (this.ended) return CUT;
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string().value;
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    return this.literal();
  }

  private object(): Record<string, unknown> {
    this.at++;
    const out: Record<string, unknown> = {};
    for (;;) {
      this.space();
      if (this.ended) return out;
      if (this.text[this.at] === '}') {
        this.at++;
        return out;
      }
      if (this.text[this.at] !== '"') throw new Unreadable();
      const key = this.string();
      if (!key.closed) return out;
      this.space();
      if (this.ended) return out;
      if (this.text[this.at] !== ':') throw new Unreadable();
      this.at++;
      this.space();
      const value = this.value();
      if (value === CUT) return out;
      out[key.value] = value;
      this.space();
      if (this.ended) return out;
      const next = this.text[this.at++];
      if (next === '}') return out;
      if (next !== ',') throw new Unreadable();
    }
  }

  private array(): unknown[] {
    this.at++;
    const out: unknown[] = [];
    for (;;) {
      this.space();
      if (this.ended) return out;
      if (this.text[this.at] === ']') {
        this.at++;
        return out;
      }
      const value = this.value();
      if (value === CUT) return out;
      out.push(value);
      this.space();
      if (this.ended) return out;
      const next = this.text[this.at++];
      if (next === ']') return out;
      if (next !== ',') throw new Unreadable();
    }
  }

  /** A string from its opening quote; `closed` is false when the text ends inside it. */
  private string(): { value: string; closed: boolean } {
    this.at++;
    let out = '';
    while (!this.ended) {
      const c = this.text[this.at] as string;
      if (c === '"') {
        this.at++;
        return { value: out, closed: true };
      }
      if (c !== '\\') {
        // Copy the run of plain characters at once: a draft is reread every time more arrives.
        let end = this.at + 1;
        while (end < this.text.length && this.text[end] !== '"' && this.text[end] !== '\\') end++;
        out += this.text.slice(this.at, end);
        this.at = end;
        continue;
      }
      const escaped = this.text[this.at + 1];
      if (escaped === undefined) break; // a backslash at the very end: its character has not arrived
      if (escaped === 'u') {
        const hex = this.text.slice(this.at + 2, this.at + 6);
        if (hex.length < 4) break;
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Unreadable();
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.at += 6;
        continue;
      }
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      };
      const decoded = simple[escaped];
      if (decoded === undefined) throw new Unreadable();
      out += decoded;
      this.at += 2;
    }
    this.at = this.text.length;
    // Half of a surrogate pair waits for its other half.
    if (/[\uD800-\uDBFF]$/.test(out)) out = out.slice(0, -1);
    return { value: out, closed: false };
  }

  private number(): number | typeof CUT {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.at));
    const end = this.at + (match?.[0].length ?? 0);
    // A number that reaches the end of the text may still be growing (`12` of `125`).
    if (!match || end >= this.text.length) {
      if (/^-?[\d.eE+-]*$/.test(this.text.slice(this.at))) {
        this.at = this.text.length;
        return CUT;
      }
      throw new Unreadable();
    }
    this.at = end;
    return Number(match[0]);
  }

  private literal(): unknown {
    const rest = this.text.slice(this.at, this.at + 5);
    for (const [word, value] of Object.entries(LITERALS)) {
      if (rest.startsWith(word)) {
        this.at += word.length;
        return value;
      }
      if (word.startsWith(rest) && this.at + rest.length >= this.text.length) {
        this.at = this.text.length;
        return CUT;
      }
    }
    throw new Unreadable();
  }
}
