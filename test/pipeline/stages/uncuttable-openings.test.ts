import { describe, expect, it } from 'vitest';
import { fillUncuttableOpenings } from '../../../core/pipeline/stages/uncuttable-openings.ts';
import { expectGoldenJson, expectGoldenRaster } from '../../helpers/golden.ts';
import { codes, ctx, disc, fillOptions, findingsOf, leavesInputAlone, metalStrip, MM_PER_PX, rect } from './draw.ts';

const STAGE = 'uncuttable-openings';
const fill = (raster: ReturnType<typeof metalStrip>) => fillUncuttableOpenings(raster, fillOptions, ctx);
const metalAt = (r: ReturnType<typeof metalStrip>, xMm: number, yMm: number) =>
  r.data[Math.floor(yMm / MM_PER_PX) * r.w + Math.floor(xMm / MM_PER_PX)];

/**
 * A 20 x 6 mm strip: a speck (0.2 mm across, under the 0.05 mm² despeckle area), a slot 0.15 mm
 * wide (under the floor everywhere), two windows joined by a 0.1 mm channel (pinched), a round
 * hole 1.5 mm across and a 2 mm square window, both wide enough to cut.
 */
function mixed() {
  const r = metalStrip(20, 6);
  disc(r, 2, 3, 0.1, 0);
  rect(r, 4, 1.5, 0.15, 3, 0);
  rect(r, 6, 2, 1.2, 2, 0);
  rect(r, 7.2, 2.95, 1, 0.1, 0);
  rect(r, 8.2, 2, 1.2, 2, 0);
  disc(r, 12, 3, 0.75, 0);
  rect(r, 15, 2, 2, 2, 0);
  return r;
}

/** A 10 x 4 mm strip pricked with 24 specks and one small cuttable hole: most of the open area would be filled. */
function pricked() {
  const r = metalStrip(10, 4);
  for (let i = 0; i < 12; i++) for (const y of [1, 3]) disc(r, 0.8 + i * 0.7, y, 0.1, 0);
  disc(r, 9.4, 2, 0.3, 0);
  return r;
}

describe('filling uncuttable openings (uncuttable-openings.ts)', () => {
  it('fills specks and openings narrower than the floor, refuses a pinched opening and fills it, and keeps wide openings', async () => {
    const input = mixed();
    const out = leavesInputAlone(input, fill);
    expect(codes(out.warnings)).toEqual(['OPENING_REMOVED']);
    expect(codes(out.errors)).toEqual(['OPENING_TOO_SMALL']);
    expect(out.warnings[0]!.locations).toHaveLength(2);
    expect(out.errors[0]!.locations).toHaveLength(1);
    expect(out.errors[0]!.locations![0]!.x).toBeCloseTo(7.7, 0);
    expect([metalAt(out.raster, 2, 3), metalAt(out.raster, 4.07, 3), metalAt(out.raster, 6.5, 3)]).toEqual([1, 1, 1]);
    expect([metalAt(out.raster, 12, 3), metalAt(out.raster, 16, 3)]).toEqual([0, 0]);
    // The air labels are the input's: the stage filled a copy.
    expect(out.air.count).toBe(5);
    await expectGoldenRaster(STAGE, 'mixed', out.raster);
    await expectGoldenJson(
      STAGE,
      'mixed',
      { warnings: findingsOf(out.warnings), errors: findingsOf(out.errors) },
      1e-6,
    );
  });

  it('refuses a drawing whose fill would take most of the open area as too fine, and fills it as it would anyway', async () => {
    const out = leavesInputAlone(pricked(), fill);
    expect(codes(out.errors)).toEqual(['FEATURES_TOO_FINE']);
    expect(out.errors[0]!.locations).toHaveLength(24);
    // The refusal names the filled openings: no warning names them again.
    expect(out.warnings).toEqual([]);
    expect(metalAt(out.raster, 0.8, 1)).toBe(1);
    expect(metalAt(out.raster, 9.4, 2)).toBe(0);
    await expectGoldenRaster(STAGE, 'pricked', out.raster);
    await expectGoldenJson(
      STAGE,
      'pricked',
      { warnings: findingsOf(out.warnings), errors: findingsOf(out.errors) },
      1e-6,
    );
  });

  it('counts the air cut away along the outline as open area: specks in letters on a rail are filled, not too fine', () => {
    // Pricked as above, but the strip is a rail under tall teeth with wide air between them,
    // reaching the strip's top edge: the specks are a sliver of all the air the piece has.
    const r = pricked();
    for (let i = 0; i < 10; i++) rect(r, i + 0.3, 0, 0.5, 0.6, 0);
    const out = fillUncuttableOpenings(r, fillOptions, ctx);
    expect(codes(out.errors)).toEqual([]);
    expect(codes(out.warnings)).toEqual(['OPENING_REMOVED']);
    expect(out.warnings[0]!.locations).toHaveLength(24);
  });

  it('leaves a slit 4 to 5 pixels wide as drawn, and fills only the sharp corner it ends in', () => {
    // A window with a slit 0.2-0.25 mm wide along its top, under the metal above, running 3 mm to a
    // corner that narrows like a round letter top rising to a rail (width d²/2R, R = 2 mm).
    const r = metalStrip(12, 4);
    rect(r, 1, 1.5, 5, 2, 0);
    for (let x = 0; x < r.w; x++) {
      const xMm = (x + 0.5) * MM_PER_PX;
      // Along 6-9 mm the slit is 0.2 or 0.25 mm (4 or 5 pixels, by turns every 0.4 mm); past 9 mm it
      // narrows to a point at 10.2 mm.
      const width =
        xMm < 6 || xMm > 10.2
          ? 0
          : xMm <= 9
            ? Math.floor(xMm / 0.4) % 2
              ? 0.25
              : 0.2
            : (10.2 - xMm) ** 2 / 4 + 0.0001;
      const depth = xMm <= 9 ? width : Math.min(0.2, width + 0.0);
      for (let y = 0; y < r.h; y++) {
        const yMm = (y + 0.5) * MM_PER_PX;
        if (xMm >= 6 && yMm >= 1.5 && yMm < 1.5 + depth) r.data[y * r.w + x] = 0;
      }
    }
    const out = fill(r);
    expect(out.errors).toEqual([]);
    // Nothing of the slit's body is filled (farther from the corner than a corner's tip spans,
    // 1.5 mm), and the corner's last part under the floor is, named as a sharp point.
    let filledInBody = 0;
    for (let x = Math.round(6.2 / MM_PER_PX); x < Math.round(8.5 / MM_PER_PX); x++) {
      for (let y = 0; y < r.h; y++) if (!r.data[y * r.w + x] && out.raster.data[y * r.w + x]) filledInBody++;
    }
    expect(filledInBody).toBe(0);
    expect(metalAt(out.raster, 9.9, 1.51)).toBe(1);
    expect(codes(out.warnings)).toEqual(['OPENING_REMOVED']);
  });

  it('names nothing where every opening can be cut', () => {
    const input = disc(disc(metalStrip(10, 4), 3, 2, 0.8, 0), 7, 2, 0.5, 0);
    const out = leavesInputAlone(input, fill);
    expect([...out.warnings, ...out.errors]).toEqual([]);
    expect(out.raster.data).not.toBe(input.data);
  });
});
