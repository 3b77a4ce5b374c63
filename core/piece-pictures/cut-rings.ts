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

type ReadCutRings = { ok: true; value: CutRings } | { ok: false; reason: string };

const ALLOWED_ELEMENTS = new Set(['svg', 'g', 'path']);
const NUMBER = '-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)';
const VIEW_BOX = new RegExp(`^\\s*(${NUMBER})[\\s,]+(${NUMBER})[\\s,]+(${NUMBER})[\\s,]+(${NUMBER})\\s*$`);

const refuse = (reason: string): ReadCutRings => ({ ok: false, reason });

/** Elements between turns of the event loop. */
const ELEMENTS_PER_PACE = 64;

/**
 * The rings of a cutting SVG, or why it is not one. `pace` (see `pacer`) is awaited now and then,
 * so a lace file of tens of thousands of points does not hold the event loop while it is read.
 */
export async function readCutRings(
  svg: string,
  pace: () => Promise<void> | undefined = () => undefined,
): Promise<ReadCutRings> {
  let viewBox: string | undefined;
  const rings: Ring[] = [];
  let points = 0;
  let count = 0;
  for (const [, mark, rawName, attributes] of svg.matchAll(/<\s*([/!?]?)\s*([A-Za-z_][\w:.-]*)([^>]*)>/g)) {
    if (++count % ELEMENTS_PER_PACE === 0) await pace();
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
      const read = readPathData(d);
      if (!read.ok) return read;
      for (const ring of read.rings) {
        rings.push(ring);
        points += ring.length / 2;
      }
    }
  }
  if (viewBox === undefined) return refuse('no <svg> element');
  const box = VIEW_BOX.exec(viewBox);
  if (!box) return refuse(`unreadable viewBox "${viewBox}"`);
  const [x0, y0, lengthMm, widthMm] = box.slice(1).map(Number) as [number, number, number, number];
  if (x0 !== 0 || y0 !== 0 || !(lengthMm > 0) || !(widthMm > 0)) return refuse(`viewBox "${viewBox}" is not 0 0 L W`);

  return { ok: true, value: { lengthMm, widthMm, rings, points } };
}

const SPACE = new Set([' ', '\t', '\n', '\r', ',']);
/** What a number token is scanned as (then held to the plain form); any other character ends it. */
const NUMBER_CHARS = new Set([...'0123456789.-+eE']);
const NUMBER_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

type PathRead = { ok: true; rings: Ring[] } | { ok: false; reason: string };

/**
 * Path data of absolute `M x y (L x y)* Z` runs, each one ring, read by a scanner (the files of
 * lace designs hold tens of thousands of points); a ring of under three points is dropped.
 */
function readPathData(d: string): PathRead {
  const rings: Ring[] = [];
  const fail = (at: number, why: string): PathRead => ({
    ok: false,
    reason: `path data ${why} at "${d.slice(at, at + 12)}"`,
  });
  let ring: number[] | undefined;
  let i = 0;
  const skipSpace = () => {
    while (i < d.length && SPACE.has(d[i]!)) i++;
  };
  const number = (): number | undefined => {
    skipSpace();
    const start = i;
    while (i < d.length && NUMBER_CHARS.has(d[i]!)) i++;
    const text = d.slice(start, i);
    return NUMBER_TEXT.test(text) ? Number(text) : undefined;
  };
  for (skipSpace(); i < d.length; skipSpace()) {
    const at = i;
    const command = d[i++];
    if (command === 'Z') {
      if (!ring) return fail(at, 'has Z before M');
      if (ring.length >= 6) rings.push(Float64Array.from(ring));
      ring = undefined;
      continue;
    }
    if (command === 'M') {
      if (ring) return fail(at, 'has a ring not closed with Z');
      ring = [];
    } else if (command === 'L') {
      if (!ring) return fail(at, 'has L before M');
    } else {
      return fail(at, 'has something other than M, L, Z and numbers');
    }
    // The file writes M or L before every point: exactly two numbers follow each.
    const x = number();
    const y = number();
    if (x === undefined || y === undefined) return fail(at, 'has a point without two plain numbers');
    ring.push(x, y);
  }
  if (ring) return fail(d.length, 'ends with a ring not closed with Z');
  return { ok: true, rings };
}
