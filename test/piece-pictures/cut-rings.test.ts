import { describe, expect, it } from 'vitest';
import { readCutRings } from '../../core/piece-pictures/cut-rings.ts';
import { parseCutSvg } from '../helpers/cut-check/svg-format.ts';

/** The pictures read the stored cutting file themselves: exactly the contract's format, nothing else. */

const file = (paths: string[], viewBox = '0.000 0.000 155.000 20.000') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}" width="155.000mm" height="20.000mm">\n<g id="cutouts">\n${paths
    .map((d) => `<path d="${d}" fill="#000" fill-rule="evenodd"/>`)
    .join('\n')}\n</g>\n</svg>\n`;

const square = 'M10.000 5.000L14.000 5.000L14.000 9.000L10.000 9.000Z';
const withIsland = `M20.000 2.000L40.000 2.000L40.000 18.000L20.000 18.000ZM25.000 6.000L30.000 6.000L30.000 12.000Z`;

describe('reading a cutting file back into rings', () => {
  it('reads every ring of every cut in millimetres, as the cut checker reads the same file', async () => {
    const svg = file([square, withIsland]);
    const read = await readCutRings(svg);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.lengthMm).toBe(155);
    expect(read.value.widthMm).toBe(20);
    expect(read.value.rings.map((r) => Array.from(r))).toEqual([
      [10, 5, 14, 5, 14, 9, 10, 9],
      [20, 2, 40, 2, 40, 18, 20, 18],
      [25, 6, 30, 6, 30, 12],
    ]);
    expect(read.value.points).toBe(11);
    const independent = parseCutSvg(svg);
    expect(independent.problems).toEqual([]);
    expect(independent.paths.flat().map((ring) => ring.map((v) => v / 1000))).toEqual(
      read.value.rings.map((r) => Array.from(r)),
    );
  });

  it.each([
    ['a curve', file(['M1.000 1.000C2.000 2.000 3.000 3.000 4.000 1.000Z']), /other than M, L, Z/],
    ['a relative move', file(['m1.000 1.000l1.000 0.000l0.000 1.000z']), /other than M, L, Z/],
    ['H and V', file(['M1.000 1.000H4.000V4.000Z']), /other than M, L, Z/],
    ['a ring left open', file(['M1.000 1.000L4.000 1.000L4.000 4.000']), /not closed/],
    ['a point with one number', file(['M1.000 1.000L4.000Z']), /two plain numbers/],
    ['a number in exponent form', file(['M1e1 1.000L4.000 1.000L4.000 4.000Z']), /two plain numbers/],
    ['a script', file([square]).replace('<g id="cutouts">', '<script>alert(1)</script><g id="cutouts">'), /<script>/],
    ['a use', file([square]).replace('</g>', '<use href="#x"/></g>'), /<use>/],
    ['an image', file([square]).replace('</g>', '<image href="x.png"/></g>'), /<image>/],
    ['a viewBox off the origin', file([square], '1.000 0.000 155.000 20.000'), /not 0 0 L W/],
    ['an empty strip', file([square], '0.000 0.000 0.000 20.000'), /not 0 0 L W/],
    ['no viewBox', '<svg xmlns="http://www.w3.org/2000/svg"><g id="cutouts"/></svg>', /no viewBox/],
    ['no svg at all', 'just text', /no <svg>/],
    ['a doctype', `<!DOCTYPE svg>${file([square])}`, /<!DOCTYPE>/],
  ])('refuses %s, saying what it found', async (_, svg, reason) => {
    const read = await readCutRings(svg);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.reason).toMatch(reason);
  });

  it('drops a ring of fewer than three points (it encloses nothing)', async () => {
    const read = await readCutRings(file(['M1.000 1.000L2.000 2.000Z', square]));
    expect(read.ok && read.value.rings).toHaveLength(1);
  });
});
