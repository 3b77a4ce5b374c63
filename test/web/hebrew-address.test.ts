import { describe, expect, it } from 'vitest';
import { he } from '../../web/strings.ts';

/**
 * The site speaks to the person in one form of address: the plural ("אתם", "שלכם", "לחצו"), which
 * Hebrew uses for anyone when the reader is not known. This reads every string the pages show
 * (functions called with sample values) and looks for the singular forms a careless edit brings in.
 */

/** Every text in `he`, functions called with a placeholder for each parameter. */
function texts(value: unknown, path = 'he'): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') return [[path, String(value(...Array.from({ length: value.length }, () => '7')))]];
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => texts(inner, `${path}.${key}`));
  }
  return [];
}

/** Singular second-person words (masculine and feminine), whole words only. */
const SINGULAR = [
  'אתה',
  'שלך',
  'לך',
  'אותך',
  'עליך',
  'לחץ',
  'לחצי',
  'היכנס',
  'היכנסי',
  'הירשם',
  'הירשמי',
  'נסה',
  'נסי',
  'בחר',
  'בחרי',
  'אשר',
  'אשרי',
  'דחה',
  'דחי',
  'חזור',
  'חזרי',
  'בדוק',
  'בדקי',
  'ספר',
  'ספרי',
  'תוכל',
  'תוכלי',
  'תחזור',
  'תחזרי',
  'תקבל',
  'תקבלי',
  'שכחת',
];
const singular = new RegExp(`(^|[^\\u0590-\\u05FF])(${SINGULAR.join('|')})(?=$|[^\\u0590-\\u05FF])`);

describe('the Hebrew of the pages', () => {
  const all = texts(he);

  it('reads every string (the walk finds them all)', () => {
    expect(all.length).toBeGreaterThan(100);
  });

  it('addresses the person in the plural throughout, never in the singular', () => {
    const found = all.filter(([, text]) => singular.test(text)).map(([path, text]) => `${path}: ${text}`);
    expect(found).toEqual([]);
  });

  it('writes millimetres and the double-letter abbreviations with gershayim, not a double quote', () => {
    const found = all.filter(([, text]) => /[\u0590-\u05FF]"[\u0590-\u05FF]/.test(text)).map(([path]) => path);
    expect(found).toEqual([]);
  });
});
