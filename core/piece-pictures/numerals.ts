import { textPath, textWidth } from '../submissions/findings-picture/stroke-font.ts';

/**
 * Numbers and the unit on the piece pictures, drawn with the findings picture's stroke font (the
 * pictures carry their own letters: a server may have no fonts for librsvg). That font draws
 * capitals only, and "MM" would read as megametres, so the unit's lower-case m is drawn here on
 * the same grid (4 wide, 6 tall, the x-height from 2 to 6); so is a plain zero (the font slashes
 * its zero to tell it from O, which a ruler has no need of).
 */
const OWN_GLYPHS: Record<string, readonly string[]> = {
  m: ['0,6 0,2', '0,3 1,2 2,3 2,6', '2,3 3,2 4,3 4,6'],
  '0': ['1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0'],
};

/** Grid units from one letter to the next, as in the stroke font. */
const ADVANCE_UNITS = 5.5;
const CAP_UNITS = 6;

const fixed = (v: number): string => String(Math.round(v * 100) / 100);

/** How wide a label is with capitals `capPx` tall. */
export const labelWidth = (text: string, capPx: number): number => textWidth(text, capPx);

/** Path data of a label with its top-left corner at (x, y), to be stroked. */
function labelPath(text: string, x: number, y: number, capPx: number): string {
  const unit = capPx / CAP_UNITS;
  let d = '';
  [...text].forEach((char, i) => {
    const left = x + i * ADVANCE_UNITS * unit;
    const own = OWN_GLYPHS[char];
    if (!own) {
      d += textPath(char, left, y, capPx);
      return;
    }
    for (const line of own) {
      line.split(' ').forEach((point, k) => {
        const [gx, gy] = point.split(',').map(Number) as [number, number];
        d += `${k === 0 ? 'M' : 'L'}${fixed(left + gx * unit)} ${fixed(y + gy * unit)}`;
      });
    }
  });
  return d;
}

/**
 * An SVG `<path>` drawing `text` in `colour`, anchored at (x, y): `anchor` says which point of its
 * top edge that is. `rotate` turns it about the anchor (degrees, -90 reads bottom to top).
 */
export function labelElement(
  text: string,
  x: number,
  y: number,
  capPx: number,
  colour: string,
  anchor: 'start' | 'middle' | 'end' = 'start',
  rotate = 0,
): string {
  const width = labelWidth(text, capPx);
  const shift = anchor === 'start' ? 0 : anchor === 'middle' ? width / 2 : width;
  const d = labelPath(text, -shift, 0, capPx);
  if (!d) return '';
  const stroke = fixed(Math.max(1.4, capPx / 6.5));
  const turn = rotate ? ` rotate(${rotate})` : '';
  return (
    `<path transform="translate(${fixed(x)} ${fixed(y)})${turn}" d="${d}" fill="none" stroke="${colour}" ` +
    `stroke-width="${stroke}" stroke-linecap="round" stroke-linejoin="round"/>`
  );
}
