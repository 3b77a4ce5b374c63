import { describe, expect, it } from 'vitest';
import type { Finding } from '../core/contract/finding.ts';
import { isRepair, numberedFindings, pictureHelps } from '../core/submissions/findings-picture/numbering.ts';
import { stripScale, type CopyView, type Place } from '../core/submissions/findings-picture/placing.ts';
import { fitText, textPath, textWidth } from '../core/submissions/findings-picture/stroke-font.ts';

/* The findings picture's parts that decide what it says: numbering, the strip's scale, the letters. */

const finding = (code: Finding['code'], severity: 'error' | 'warning', places: [number, number][] = []): Finding => ({
  code,
  severity,
  message: 'm',
  agent_instruction: 'i',
  ...(places.length ? { locations: places.map(([x, y]) => ({ x, y, r: 1, px: { x, y, r: 9 } })) } : {}),
});

describe('numbering', () => {
  it('numbers errors first, then warnings, from 1', () => {
    const errors = [finding('OPENING_TOO_SMALL', 'error'), finding('NECK_TOO_THIN', 'error')];
    const warnings = [finding('PROPORTION_MISMATCH', 'warning'), finding('ISLAND_BRIDGED', 'warning')];
    expect(numberedFindings({ errors, warnings }).map(({ no, finding: f }) => `${no} ${f.code}`)).toEqual([
      '1 OPENING_TOO_SMALL',
      '2 NECK_TOO_THIN',
      '3 PROPORTION_MISMATCH',
      '4 ISLAND_BRIDGED',
    ]);
  });

  it('calls the picture helpful only for errors or repairs that have a place', () => {
    const placed = [[10, 5]] as [number, number][];
    expect(pictureHelps({ errors: [finding('FEATURES_TOO_FINE', 'error')], warnings: [] }, 'errors-or-repairs')).toBe(
      false,
    );
    expect(
      pictureHelps({ errors: [finding('OPENING_TOO_SMALL', 'error', placed)], warnings: [] }, 'errors-or-repairs'),
    ).toBe(true);
    expect(
      pictureHelps({ errors: [], warnings: [finding('DESIGN_TOUCHES_EDGE', 'warning', placed)] }, 'errors-or-repairs'),
    ).toBe(false);
    expect(pictureHelps({ errors: [], warnings: [finding('SPURS_SHAVED', 'warning', placed)] }, 'repairs')).toBe(true);
    expect(pictureHelps({ errors: [finding('OPENING_TOO_SMALL', 'error', placed)], warnings: [] }, 'repairs')).toBe(
      false,
    );
    expect(
      ['ISLAND_BRIDGED', 'ISLAND_REMOVED', 'NECK_THICKENED', 'SPURS_SHAVED', 'OPENING_REMOVED'].every((code) =>
        isRepair(finding(code as Finding['code'], 'warning')),
      ),
    ).toBe(true);
  });
});

describe("the strip's scale on the kept copy", () => {
  // A 400 x 300 copy of a 800 x 600 upload; the piece's box in the upload is (100, 200)-(699, 299):
  // 600 x 100 px for a 150 x 25 mm strip, so 4 upload px per mm and 2 copy px per mm.
  const geometry = {
    lengthMm: 150,
    widthMm: 25,
    drawnRatio: 6,
    stretch: 1,
    cuts: 1,
    openAreaPct: 1,
    estWeightGrams: 1,
  };
  const place = (x: number, y: number, r: number): Place => ({
    x,
    y,
    r,
    px: { x: Math.round(100 + x * 4), y: Math.round(200 + y * 4), r: Math.ceil(r * 4) },
  });
  function copy(withPiece: boolean): CopyView {
    const w = 400;
    const h = 300;
    const lum = new Uint8Array(w * h).fill(255);
    if (withPiece) for (let y = 100; y < 150; y++) lum.fill(0, y * w + 50, y * w + 350);
    return { w, h, lum, kx: 0.5, ky: 0.5 };
  }

  it('reads the piece on the copy when the places agree with it', () => {
    expect(stripScale(copy(true), [place(75, 12.5, 1)], geometry)).toEqual({ sx: 2, sy: 2 });
  });

  it('fits spread-out places when the copy shows no piece', () => {
    const scale = stripScale(copy(false), [place(10, 5, 1), place(140, 20, 1)], geometry)!;
    expect(scale.sx).toBeCloseTo(2, 1);
    expect(scale.sy).toBeCloseTo(2, 1);
  });

  it('falls back on the bound a single place’s pixel radius sets', () => {
    const scale = stripScale(copy(false), [place(75, 12.5, 2.5)], geometry)!;
    expect(Math.abs(scale.sx - 2) / 2).toBeLessThan(0.1);
    expect(stripScale(copy(true), [], geometry)).toBeUndefined();
  });
});

describe('the stroke font', () => {
  it('draws every character it is given, as paths only, and measures what it draws', () => {
    const d = textPath('NECK_THICKENED (12 PLACES)', 0, 0, 12);
    expect(d).toMatch(/^M[0-9. LM-]+$/);
    expect(textWidth('AB', 12)).toBeGreaterThan(textWidth('A', 12));
    expect(textPath('é', 0, 0, 12)).not.toBe('');
    const cut = fitText('A VERY LONG LINE OF WORDS', 12, 100);
    expect(cut.endsWith('...')).toBe(true);
    expect(textWidth(cut, 12)).toBeLessThanOrEqual(100);
  });
});
