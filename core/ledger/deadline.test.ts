import { describe, expect, it } from 'vitest';
import { deadlineDay } from './deadline';

const debateStart = new Date('2026-03-15T10:00:00Z');

describe('deadlineDay', () => {
  it.each([
    ['2027-12-31', '2027-12-31'],
    ['by 2027-06-30T00:00Z', '2027-06-30'],
    ['15 June 2027', '2027-06-15'],
    ['June 15, 2027', '2027-06-15'],
    ['end of Feb 2028', '2028-02-29'],
    ['Q3 2027', '2027-09-30'],
    ['2027-Q1', '2027-03-31'],
    ['H1 2028', '2028-06-30'],
    ['2027-11', '2027-11-30'],
    ['within 18 months', '2027-09-15'],
    ['in 6 weeks', '2026-04-26'],
    ['90 days', '2026-06-13'],
    ['end of 2026', '2026-12-31'],
  ])('reads %s as %s', (text, day) => {
    expect(deadlineDay(text, debateStart)).toBe(day);
  });

  it.each(['soon', '', 'when the market matures', '2027-02-30'])('gives up on %j', (text) => {
    expect(deadlineDay(text, debateStart)).toBeNull();
  });
});
