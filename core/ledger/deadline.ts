/**
 * Falsifier deadlines are free text written by agents: "2027-12-31", "Q3 2027", "June 2027",
 * "end of 2026", "within 18 months". The ledger needs a day to sort by and to call a falsifier
 * overdue, so this reads the common forms and gives up (null) on the rest rather than guess.
 * A period ("June 2027", "Q3 2027", "2027") means its last day: the deadline has not passed
 * while any of the period is left. Relative forms count from `reference` (the debate's start).
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_WORD =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function dayText(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

function lastDayOf(year: number, month: number): string {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${pad(month)}-${pad(last)}`;
}

function monthIndex(word: string): number {
  return MONTHS.indexOf(word.slice(0, 3).toLowerCase()) + 1;
}

function addTo(reference: Date, amount: number, unit: string): string {
  // From the reference's day where the researcher is, as the ledger's "today" is: a debate started
  // at 23:00 in Honolulu counts from that day, not from the next one in UTC.
  const d = new Date(Date.UTC(reference.getFullYear(), reference.getMonth(), reference.getDate()));
  if (unit.startsWith('day')) d.setUTCDate(d.getUTCDate() + amount);
  else if (unit.startsWith('week')) d.setUTCDate(d.getUTCDate() + amount * 7);
  else if (unit.startsWith('month')) d.setUTCMonth(d.getUTCMonth() + amount);
  else d.setUTCFullYear(d.getUTCFullYear() + amount);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** The deadline as `YYYY-MM-DD`, or null when the text names no day, period or span we can read. */
export function deadlineDay(text: string, reference: Date): string | null {
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  let m = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(t);
  if (m) return dayText(Number(m[1]), Number(m[2]), Number(m[3]));
  m = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH_WORD}\\.?,?\\s+(\\d{4})\\b`).exec(t);
  if (m) return dayText(Number(m[3]), monthIndex(m[2] as string), Number(m[1]));
  m = new RegExp(`\\b${MONTH_WORD}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`).exec(t);
  if (m) return dayText(Number(m[3]), monthIndex(m[1] as string), Number(m[2]));
  m = new RegExp(`\\b${MONTH_WORD}\\.?,?\\s+(\\d{4})\\b`).exec(t);
  if (m) return lastDayOf(Number(m[2]), monthIndex(m[1] as string));
  m = /\bq([1-4])\s*(?:of\s+)?(\d{4})\b/.exec(t);
  if (m) return lastDayOf(Number(m[2]), Number(m[1]) * 3);
  m = /\b(\d{4})[\s-]*q([1-4])\b/.exec(t);
  if (m) return lastDayOf(Number(m[1]), Number(m[2]) * 3);
  m = /\bh([12])\s*(\d{4})\b/.exec(t);
  if (m) return lastDayOf(Number(m[2]), m[1] === '1' ? 6 : 12);
  m = /\b(\d{4})-(\d{2})\b/.exec(t);
  if (m && Number(m[2]) >= 1 && Number(m[2]) <= 12) return lastDayOf(Number(m[1]), Number(m[2]));
  m = /\b(\d+)\s*(days?|weeks?|months?|years?|yrs?)\b/.exec(t);
  if (m && !Number.isNaN(reference.getTime())) return addTo(reference, Number(m[1]), m[2] as string);
  m = /\b(19|20|21)(\d{2})\b/.exec(t);
  if (m) return `${m[1]}${m[2]}-12-31`;
  return null;
}
