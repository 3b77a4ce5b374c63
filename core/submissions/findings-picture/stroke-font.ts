/**
 * A small stroke font for the findings picture: capitals, digits and a little punctuation drawn
 * as SVG paths. The picture is rendered by librsvg inside sharp, whose `<text>` needs system
 * fonts through fontconfig; a fresh server may have none (text would vanish or turn into boxes),
 * so the picture carries its own letters and looks the same on every machine.
 *
 * Glyphs are polylines on a grid 4 units wide and 6 tall (y down, 0 at the cap line, 6 on the
 * baseline; the underscore and comma reach to 7). Lower case is drawn as capitals.
 */

const O = '1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0';
const P = '0,6 0,0 3,0 4,1 4,2 3,3 0,3';

const GLYPHS: Record<string, readonly string[]> = {
  A: ['0,6 0,2 2,0 4,2 4,6', '0,4 4,4'],
  B: ['0,3 3,3 4,4 4,5 3,6 0,6 0,0 3,0 4,1 4,2 3,3'],
  C: ['4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5'],
  D: ['0,0 0,6 2,6 4,4 4,2 2,0 0,0'],
  E: ['4,0 0,0 0,6 4,6', '0,3 3,3'],
  F: ['4,0 0,0 0,6', '0,3 3,3'],
  G: ['4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3 2,3'],
  H: ['0,0 0,6', '4,0 4,6', '0,3 4,3'],
  I: ['1,0 3,0', '2,0 2,6', '1,6 3,6'],
  J: ['4,0 4,5 3,6 1,6 0,5'],
  K: ['0,0 0,6', '4,0 0,4', '1,3 4,6'],
  L: ['0,0 0,6 4,6'],
  M: ['0,6 0,0 2,3 4,0 4,6'],
  N: ['0,6 0,0 4,6 4,0'],
  O: [O],
  P: [P],
  Q: [O, '2,4 4,6'],
  R: [P, '2,3 4,6'],
  S: ['4,1 3,0 1,0 0,1 0,2 1,3 3,3 4,4 4,5 3,6 1,6 0,5'],
  T: ['0,0 4,0', '2,0 2,6'],
  U: ['0,0 0,5 1,6 3,6 4,5 4,0'],
  V: ['0,0 2,6 4,0'],
  W: ['0,0 1,6 2,3 3,6 4,0'],
  X: ['0,0 4,6', '4,0 0,6'],
  Y: ['0,0 2,3 4,0', '2,3 2,6'],
  Z: ['0,0 4,0 0,6 4,6'],
  // A slashed zero, so 0 and O differ in codes and numbers.
  '0': [O, '4,1 0,5'],
  '1': ['1,1 2,0 2,6', '1,6 3,6'],
  '2': ['0,1 1,0 3,0 4,1 4,2 0,6 4,6'],
  '3': ['0,1 1,0 3,0 4,1 4,2 3,3 1,3', '3,3 4,4 4,5 3,6 1,6 0,5'],
  '4': ['3,6 3,0 0,4 4,4'],
  '5': ['4,0 0,0 0,3 3,3 4,4 4,5 3,6 0,6'],
  '6': ['3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,4 3,3 0,3'],
  '7': ['0,0 4,0 1,6'],
  '8': ['1,0 3,0 4,1 4,2 3,3 1,3 0,2 0,1 1,0', '1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3'],
  '9': ['4,3 1,3 0,2 0,1 1,0 3,0 4,1 4,5 3,6 1,6'],
  _: ['0,7 4,7'],
  '-': ['1,3 3,3'],
  '+': ['2,1 2,5', '0,3 4,3'],
  '=': ['0,2 4,2', '0,4 4,4'],
  '(': ['3,0 1,2 1,4 3,6'],
  ')': ['1,0 3,2 3,4 1,6'],
  '/': ['0,6 4,0'],
  '.': ['2,6 2,6'],
  ',': ['2,5.5 1.5,7'],
  ':': ['2,2 2,2', '2,5 2,5'],
  "'": ['2,0 2,1.5'],
  '>': ['0,3 4,3', '2,1 4,3 2,5'],
  '?': ['0,1 1,0 3,0 4,1 4,2 2,3 2,4', '2,6 2,6'],
  ' ': [],
};

/** Grid units from one letter's start to the next: the 4-unit glyph plus the gap. */
const ADVANCE_UNITS = 5.5;
const CAP_UNITS = 6;

/** How wide `text` is when drawn with capitals `capPx` tall. */
export function textWidth(text: string, capPx: number): number {
  if (text.length === 0) return 0;
  return ((text.length * ADVANCE_UNITS - (ADVANCE_UNITS - 4)) * capPx) / CAP_UNITS;
}

/** The longest prefix of `text` (with an ellipsis when cut) that fits in `maxPx`. */
export function fitText(text: string, capPx: number, maxPx: number): string {
  if (textWidth(text, capPx) <= maxPx) return text;
  let cut = text;
  while (cut.length > 0 && textWidth(`${cut}...`, capPx) > maxPx) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}...`;
}

const fixed = (v: number): string => String(Math.round(v * 100) / 100);

/**
 * Path data drawing `text` with its top-left corner at (x, y) and capitals `capPx` tall; stroke
 * it (round caps and joins, width about `capPx / 7`) with no fill. Unknown characters draw as "?".
 */
export function textPath(text: string, x: number, y: number, capPx: number): string {
  const unit = capPx / CAP_UNITS;
  let d = '';
  [...text.toUpperCase()].forEach((char, i) => {
    const glyph = GLYPHS[char] ?? GLYPHS['?']!;
    const left = x + i * ADVANCE_UNITS * unit;
    for (const line of glyph) {
      line.split(' ').forEach((point, k) => {
        const [gx, gy] = point.split(',').map(Number) as [number, number];
        d += `${k === 0 ? 'M' : 'L'}${fixed(left + gx * unit)} ${fixed(y + gy * unit)}`;
      });
    }
  });
  return d;
}

/** An SVG `<path>` element drawing `text` (see `textPath`) in `colour`. */
export function textElement(text: string, x: number, y: number, capPx: number, colour: string): string {
  const d = textPath(text, x, y, capPx);
  if (!d) return '';
  const width = fixed(Math.max(1.2, capPx / 7));
  return `<path d="${d}" fill="none" stroke="${colour}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/>`;
}
