/**
 * The stored cutting SVG read back as polygons in millimetres. The file is ours and its format is
 * the contract's (root `svg` with `viewBox="0 0 L W"`, one `g#cutouts` of black even-odd paths of
 * absolute M, L, Z with plain numbers); anything else is refused with a reason rather than guessed
 * at, so a picture is never drawn from something that is not a cutting file.
 */

/** A closed ring: x0, y0, x1, y1, … in millimetres, the first point not repeated. */
export type Ring = Float64Array;

/**
 * The strip and every ring of every cut. Metal is the L × W rectangle with every ring toggled
 * (even-odd): the cuts never overlap, each one's outline makes air and the metal left inside it
 * (its following rings) stays metal.
 */
export interface CutRings {
  lengthMm: number;
  widthMm: number;
  rings: Ring[];
  /** Points in all rings. */
  points: number;
}

export type ReadCutRings = { ok: true; value: CutRings } | { ok: false; reason: string };

const ALLOWED_ELEMENTS = new Set(['svg', 'g', 'path']);
const NUMBER = '-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)';
const VIEW_BOX = new RegExp(`^\\s*(${NUMBER})[\\s,]+(${NUMBER})[\\s,]+(${NUMBER})[\\s,]+(${NUMBER})\\s*$`);
const TOKEN = new RegExp(`\\s*(?:([MLZ])|(${NUMBER}))`, 'y');

const refuse = (reason: string): ReadCutRings => ({ ok: false, reason });

/** The rings of a cutting SVG, or why it is not one. */
export function readCutRings(svg: string): ReadCutRings {
  const tags = [...svg.matchAll(/<\s*([/!?]?)\s*([A-Za-z_][\w:.-]*)([^>]*)>/g)];
  let viewBox: string | undefined;
  const paths: string[] = [];
  for (const [, mark, rawName, attributes] of tags) {
    if (mark === '?' || mark === '/') continue;
    const name = rawName!.toLowerCase();
    if (mark === '!' || !ALLOWED_ELEMENTS.has(name)) return refuse(`unexpected element <${mark}${rawName}>`);
    if (name === 'svg') {
      if (viewBox !== undefined) return refuse('more than one <svg> element');
      viewBox = /\sviewBox="([^"]*)"/.exec(attributes!)?.[1];
      if (viewBox === undefined) return refuse('the <svg> element has no viewBox');
    } else if (name === 'path') {
      const d = /\sd="([^"]*)"/.exec(attributes!)?.[1];
      if (d === undefined) return refuse('a <path> without path data');
      paths.push(d);
    }
  }
  if (viewBox === undefined) return refuse('no <svg> element');
  const box = VIEW_BOX.exec(viewBox);
  if (!box) return refuse(`unreadable viewBox "${viewBox}"`);
  const [x0, y0, lengthMm, widthMm] = box.slice(1).map(Number) as [number, number, number, number];
  if (x0 !== 0 || y0 !== 0 || !(lengthMm > 0) || !(widthMm > 0)) return refuse(`viewBox "${viewBox}" is not 0 0 L W`);

  const rings: Ring[] = [];
  let points = 0;
  for (const d of paths) {
    const read = readPathData(d);
    if (!read.ok) return read;
    for (const ring of read.rings) {
      rings.push(ring);
      points += ring.length / 2;
    }
  }
  return { ok: true, value: { lengthMm, widthMm, rings, points } };
}

/** Path data of absolute M x y (L x y)* Z runs: each run one ring; a ring of under three points is dropped. */
function readPathData(d: string): { ok: true; rings: Ring[] } | { ok: false; reason: string } {
  const rings: Ring[] = [];
  let ring: number[] | undefined;
  let expect: 'command' | 'x' | 'y' = 'command';
  let x = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < d.length) {
    const at = TOKEN.lastIndex;
    const token = TOKEN.exec(d);
    if (!token) {
      if (/^\s*$/.test(d.slice(at))) break;
      return {
        ok: false,
        reason: `path data has something other than M, L, Z and numbers at "${d.slice(at, at + 12)}"`,
      };
    }
    const [, command, number] = token;
    if (command !== undefined) {
      if (expect !== 'command') return { ok: false, reason: `path data: a point is missing a coordinate` };
      if (command === 'M') {
        if (ring) return { ok: false, reason: 'path data: a ring is not closed with Z' };
        ring = [];
      } else if (command === 'L') {
        if (!ring) return { ok: false, reason: 'path data: L before M' };
      } else {
        if (!ring) return { ok: false, reason: 'path data: Z before M' };
        if (ring.length >= 6) rings.push(Float64Array.from(ring));
        ring = undefined;
        continue;
      }
      expect = 'x';
    } else {
      const value = Number(number);
      if (!Number.isFinite(value)) return { ok: false, reason: 'path data: a number out of range' };
      if (expect === 'x') {
        x = value;
        expect = 'y';
      } else if (expect === 'y') {
        ring!.push(x, value);
        // Only one point per command: the file writes M or L before every point.
        expect = 'command';
      } else {
        return { ok: false, reason: 'path data: a number without a command' };
      }
    }
  }
  if (ring || expect !== 'command') return { ok: false, reason: 'path data: a ring is not closed with Z' };
  return { ok: true, rings };
}
