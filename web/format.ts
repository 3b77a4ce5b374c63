import { he } from './strings.ts';

/** Numbers, lengths, prices and dates as a Hebrew reader in Israel expects them (he-IL). */

const LOCALE = 'he-IL';
const TIME_ZONE = 'Asia/Jerusalem';

const decimal = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const dateTime = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'long', timeStyle: 'short', timeZone: TIME_ZONE });

/** A plain number with at most one decimal: `1,172.4`. */
export const formatNumber = (value: number): string => decimal.format(value);

// Units come from our strings, not from Intl's unit style: CLDR writes `מ″מ` (a double prime)
// for 1 and `מ״מ` (gershayim) for other numbers, and abbreviates grams.

/** A length with its unit: `172.3 מ״מ`. */
export const formatMm = (value: number): string => `${decimal.format(value)} ${he.units.mm}`;

/** A weight in whole grams: `32 גרם`. */
export const formatGrams = (value: number): string => `${whole.format(value)} ${he.units.grams}`;

/** A price in its currency: whole amounts without decimals (`‏320 ‏₪`), others with two. */
export function formatPrice(amount: number, currency: string): string {
  const digits = Number.isInteger(amount) ? 0 : 2;
  try {
    return new Intl.NumberFormat(LOCALE, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(amount);
  } catch {
    // Not an ISO 4217 code: show the number and the code as stored rather than fail the page.
    return `${decimal.format(amount)} ${currency}`;
  }
}

/** A moment in Israel's time zone: `22 בנובמבר 2026 בשעה 14:00`. */
export const formatDateTime = (ms: number): string => dateTime.format(new Date(ms));
