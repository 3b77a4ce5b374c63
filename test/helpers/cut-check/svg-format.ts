/**
 * Reads a cutting SVG as the contract describes it, and lists every departure from it: root `svg`
 * with `viewBox="0.000 0.000 L W"`, one `g id="cutouts"` holding only
 * `<path d="…" fill="#000" fill-rule="evenodd"/>`, path data of absolute `M`, `L`, `Z` with
 * numbers written with exactly three decimals, no script, style, foreignObject, image or use.
 * Coordinates are read as integers in thousandths of a millimetre, exactly.
 */

/** One ring: x0, y0, x1, y1, … in thousandths of a millimetre, without repeating the first point. */
export type Ring = number[];

export interface CutFile {
  /** The strip in thousandths of a millimetre (0 when the viewBox is unreadable). */
  lengthU: number;
  widthU: number;
  /** Each path's rings: the first is the outline of its air, the following ones metal left inside it. */
  paths: Ring[][];
  problems: string[];
}

const FORBIDDEN = new Set(['script', 'style', 'foreignobject', 'image', 'use']);
const ALLOWED = new Set(['svg', 'g', 'path']);
const PATH_ATTRIBUTES = new Set(['d', 'fill', 'fill-rule']);
const THREE_DECIMALS = /^-?\d+\.\d{3}$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;

/** The file's strip and cuts in exact thousandths, with every departure from the contract's format described. */
export function parseCutSvg(svg: string): CutFile {
  const problems = new Tally();
  const text = svg.replace(/<!--[\s\S]*?-->/g, '');
  const paths: Ring[][] = [];
  let lengthU = 0;
  let widthU = 0;
  let first = true;
  let depth = 0;
  let cutoutsDepth = -1;
  let cutoutsGroups = 0;
  for (const match of text.matchAll(/<\s*([/!?]?)\s*([A-Za-z_][\w:.-]*)([^>]*)>/g)) {
    const [, mark, rawName, rest] = match as unknown as [string, string, string, string];
    const name = rawName.toLowerCase();
    if (mark === '?') continue; // the XML declaration
    if (mark === '!') {
      problems.add(`a <!${rawName}> declaration is not allowed`);
      continue;
    }
    if (mark === '/') {
      depth--;
      if (depth < cutoutsDepth) cutoutsDepth = -1;
      continue;
    }
    const selfClosing = rest.trimEnd().endsWith('/');
    const attributes = readAttributes(rest);
    for (const attribute of attributes.keys()) {
      if (/^on/i.test(attribute) || /href$/i.test(attribute)) problems.add(`attribute ${attribute} is not allowed`);
    }
    if (FORBIDDEN.has(name)) problems.add(`<${rawName}> is not allowed`);
    else if (!ALLOWED.has(name)) problems.add(`<${rawName}> is not part of the cutting format`);
    if (first) {
      first = false;
      if (name !== 'svg') problems.add('the root element is not <svg>');
      else [lengthU, widthU] = readViewBox(attributes.get('viewBox'), problems);
    }
    if (name === 'g' && attributes.get('id') === 'cutouts') {
      cutoutsGroups++;
      if (!selfClosing) cutoutsDepth = depth + 1;
    }
    if (name === 'path') {
      const inside = cutoutsDepth >= 0 && depth >= cutoutsDepth;
      if (!inside) problems.add('a <path> lies outside <g id="cutouts">');
      else paths.push(readPath(attributes, paths.length + 1, problems));
    }
    if (!selfClosing) depth++;
  }
  if (cutoutsGroups !== 1) problems.add(`the file holds ${cutoutsGroups} <g id="cutouts"> groups, not one`);
  return { lengthU, widthU, paths, problems: problems.list() };
}

/** Problems counted by message, listed once each with how often they occurred. */
class Tally {
  private readonly counts = new Map<string, { count: number; example: string }>();
  add(message: string, example = ''): void {
    const known = this.counts.get(message);
    if (known) known.count++;
    else this.counts.set(message, { count: 1, example });
  }
  list(): string[] {
    return [...this.counts].map(([message, { count, example }]) =>
      count === 1 && !example ? message : `${message} (${count}×${example ? `, first ${example}` : ''})`,
    );
  }
}

function readAttributes(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of text.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    attributes.set(match[1]!, match[2] ?? match[3] ?? '');
  }
  return attributes;
}

function readViewBox(viewBox: string | undefined, problems: Tally): [number, number] {
  if (viewBox === undefined) {
    problems.add('the <svg> has no viewBox');
    return [0, 0];
  }
  const parts = viewBox.trim().split(/[\s,]+/);
  if (
    parts.length !== 4 ||
    parts[0] !== '0.000' ||
    parts[1] !== '0.000' ||
    !parts.every((p) => THREE_DECIMALS.test(p))
  ) {
    problems.add(`the viewBox "${viewBox}" is not "0.000 0.000 L W" with three decimals`);
  }
  const length = Math.round(Number(parts[2]) * 1000);
  const width = Math.round(Number(parts[3]) * 1000);
  if (!(length > 0 && width > 0)) {
    problems.add(`the viewBox "${viewBox}" does not give a strip`);
    return [0, 0];
  }
  return [length, width];
}

function readPath(attributes: Map<string, string>, number: number, problems: Tally): Ring[] {
  for (const attribute of attributes.keys()) {
    if (!PATH_ATTRIBUTES.has(attribute)) problems.add(`a <path> has the attribute ${attribute}`);
  }
  if (attributes.get('fill') !== '#000') problems.add('a <path> is not fill="#000"');
  if (attributes.get('fill-rule') !== 'evenodd') problems.add('a <path> is not fill-rule="evenodd"');
  const d = attributes.get('d');
  if (d === undefined) {
    problems.add('a <path> has no d');
    return [];
  }
  return readPathData(d, `path ${number}`, problems);
}

/** Rings of one path's data; anything but absolute M/L/Z with three-decimal numbers is a problem. */
function readPathData(d: string, where: string, problems: Tally): Ring[] {
  const rings: Ring[] = [];
  let ring: Ring | null = null;
  let command = '';
  let pending: number[] = [];
  let pairsSinceCommand = 0;
  const close = (closed: boolean): void => {
    if (ring && !closed) problems.add('a ring is not closed with Z', `in ${where}`);
    if (ring) rings.push(ring);
    ring = null;
  };
  let at = 0;
  while (at < d.length) {
    const c = d[at]!;
    if (/[\s,]/.test(c)) {
      at++;
      continue;
    }
    if (/[A-Za-z]/.test(c)) {
      at++;
      if (pending.length) problems.add('a coordinate pair is incomplete', `in ${where}`);
      pending = [];
      if (c === 'M') close(false);
      if (c === 'Z') {
        if (!ring) problems.add('Z closes no ring', `in ${where}`);
        close(true);
      }
      if (c === 'L' && !ring) problems.add('L without a preceding M', `in ${where}`);
      if (c !== 'M' && c !== 'L' && c !== 'Z') {
        problems.add(`command ${c} is not allowed (only absolute M, L, Z)`, `in ${where}`);
        close(true); // the rest of this path cannot be read as straight segments
        return rings;
      }
      command = c;
      pairsSinceCommand = 0;
      continue;
    }
    const token = NUMBER.exec(d.slice(at, at + 40))?.[0];
    if (!token) {
      problems.add(`unreadable path data "${d.slice(at, at + 10)}"`, `in ${where}`);
      close(true);
      return rings;
    }
    at += token.length;
    if (!THREE_DECIMALS.test(token)) problems.add('a number is not written with exactly three decimals', `"${token}"`);
    pending.push(Math.round(Number(token) * 1000));
    if (pending.length < 2) continue;
    if (command === 'Z' || command === '') problems.add('coordinates follow no M or L', `in ${where}`);
    else {
      if (pairsSinceCommand > 0) problems.add('a coordinate pair has no command letter of its own', `in ${where}`);
      if (command === 'M' && pairsSinceCommand === 0) ring = [];
      ring?.push(pending[0]!, pending[1]!);
    }
    pairsSinceCommand++;
    pending = [];
  }
  if (pending.length) problems.add('a coordinate pair is incomplete', `in ${where}`);
  close(false);
  return rings;
}
