/**
 * The tolerance, tested. Widths read on pixels of side ρ err by less than one pixel either way
 * (each side's edge lies anywhere between the last pixel centre inside and the first outside, and
 * the estimate takes the average overshoot off). Comparing with `floor − tol`, tol = 1.5ρ:
 * - a gap of at least floor − tol + ρ = floor − ρ/2 is never flagged (so the floor itself passes,
 *   with half a pixel to spare, and a fortiori any gap above the floor by more than the tolerance);
 * - a gap under floor − tol − ρ = floor − 2.5ρ is always flagged;
 * - in between lies the raster's blind band, two pixels wide, where either answer is right.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCutSvg } from '../helpers/cut-check/index.ts';
import { cuttingSvg, disc, rect, rotate, RULES } from '../helpers/cut-check/test-shapes.ts';

const PIXEL = 0.02;
const TOL = 1.5 * PIXEL;
const FLOOR = RULES.minMetalMm;
const ALWAYS_FLAGGED_BELOW = FLOOR - TOL - PIXEL;
const NEVER_FLAGGED_FROM = FLOOR - TOL + PIXEL;
const OPENING_ALWAYS_FLAGGED_BELOW = RULES.minOpeningMm - TOL - PIXEL;
const OPENING_NEVER_FLAGGED_FROM = RULES.minOpeningMm - TOL + PIXEL;

describe('width tolerance (property tests)', () => {
  it('flags two discs iff their gap is under the floor beyond the tolerance and the raster error', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.double({ min: 0.3, max: 0.9, noNaN: true }),
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (r1, r2, gap, angle, shift) => {
          // The gap's middle at (8 + shift·ρ, 6 + shift·ρ): any sub-pixel phase, discs ≥ 1.5 mm from the edges.
          const mx = 8 + shift * PIXEL;
          const my = 6 + shift * PIXEL;
          const ux = Math.cos(angle);
          const uy = Math.sin(angle);
          const a = disc(mx - ux * (r1 + gap / 2), my - uy * (r1 + gap / 2), r1, 180, shift);
          const b = disc(mx + ux * (r2 + gap / 2), my + uy * (r2 + gap / 2), r2, 180, shift);
          const report = checkCutSvg(cuttingSvg(16, 12, [[a], [b]]), RULES);
          const webs = report.thinMetal.filter((place) => place.kind === 'between-boundaries');
          if (gap < ALWAYS_FLAGGED_BELOW) {
            expect(webs).toHaveLength(1);
            expect(Math.hypot(webs[0]!.x - mx, webs[0]!.y - my)).toBeLessThan(0.1);
          }
          if (gap >= NEVER_FLAGGED_FROM) expect(report.thinMetal).toEqual([]);
          // Whenever a width is reported it is within a pixel of the drawn gap (polygons and
          // three-decimal rounding add under 0.003 mm).
          for (const web of webs) expect(Math.abs(web.widthMm - gap)).toBeLessThan(PIXEL + 0.003);
          expect(report.narrowOpenings).toEqual([]);
          expect(report.pieces).toBe(1);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('flags a straight bar at any angle iff it is under the floor beyond the tolerance and the raster error', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.45, max: 0.75, noNaN: true }),
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (width, angle, shift) => {
          const cx = 8 + shift * PIXEL;
          const cy = 5 + shift * PIXEL * 0.7;
          const left = rotate(rect(cx - 3 - width / 2, cy - 2, 3, 4), cx, cy, angle);
          const right = rotate(rect(cx + width / 2, cy - 2, 3, 4), cx, cy, angle);
          const report = checkCutSvg(cuttingSvg(16, 10, [[left], [right]]), RULES);
          if (width < ALWAYS_FLAGGED_BELOW) {
            expect(report.thinMetal.filter((place) => place.kind === 'between-boundaries')).toHaveLength(1);
          }
          // No neck, thin part or web anywhere once the bar is wide enough.
          if (width >= NEVER_FLAGGED_FROM) expect(report.thinMetal).toEqual([]);
          for (const place of report.thinMetal) {
            expect(Math.abs(place.widthMm - width)).toBeLessThan(PIXEL + 0.003);
            expect(Math.hypot(place.x - cx, place.y - cy)).toBeLessThan(2.1);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('flags a pinch in a slot at any angle iff it is under the floor beyond the tolerance and the raster error', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.2, max: 0.5, noNaN: true }),
        fc.double({ min: 0.05, max: 0.2, noNaN: true }),
        fc.double({ min: 0.06, max: 0.4, noNaN: true }),
        fc.double({ min: -0.45, max: 0.45, noNaN: true }),
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (slot, pinch, tooth, across, angle, shift) => {
          // A slot 4 mm long, from the floor itself to 0.5 mm wide, pinched by a square tooth from
          // each side, `tooth` mm along it, leaving `pinch` mm between them, `across` × (slot − pinch)
          // off the slot's middle line. Only the pinch may be flagged.
          const cx = 8 + shift * PIXEL;
          const cy = 5 + shift * PIXEL * 0.7;
          const middle = cy + across * (slot - pinch);
          const [top, bottom] = [cy - slot / 2, cy + slot / 2];
          const [from, to] = [cx - tooth / 2, cx + tooth / 2];
          const ring = rotate(
            [
              [cx - 2, top],
              [from, top],
              [from, middle - pinch / 2],
              [to, middle - pinch / 2],
              [to, top],
              [cx + 2, top],
              [cx + 2, bottom],
              [to, bottom],
              [to, middle + pinch / 2],
              [from, middle + pinch / 2],
              [from, bottom],
              [cx - 2, bottom],
            ],
            cx,
            cy,
            angle,
          );
          const [px, py] = rotate([[cx, middle]], cx, cy, angle)[0]!;
          const report = checkCutSvg(cuttingSvg(16, 10, [[ring]]), RULES);
          const pinches = report.narrowOpenings.filter((place) => place.kind === 'pinched');
          if (pinch < OPENING_ALWAYS_FLAGGED_BELOW) {
            expect(pinches).toHaveLength(1);
            // On the pinch: within its length along the slot, and a pixel or so beyond.
            expect(Math.hypot(pinches[0]!.x - px, pinches[0]!.y - py)).toBeLessThan(Math.max(0.1, tooth / 2 + 0.03));
          }
          if (pinch >= OPENING_NEVER_FLAGGED_FROM) expect(report.narrowOpenings).toEqual([]);
          for (const place of pinches) expect(Math.abs(place.widthMm - pinch)).toBeLessThan(PIXEL + 0.003);
        },
      ),
      { numRuns: 40 },
    );
  });
});
