import { describe, expect, it } from 'vitest';
import { blameRepairs } from '../../../core/pipeline/findings/blame-repairs.ts';
import { finding } from '../../../core/pipeline/findings/wording.ts';

const ctx = { minOpeningMm: 0.2, minMetalMm: 0.6 };
const at = (x: number, y: number, r = 0.6) => ({ x, y, r });

describe('blameRepairs', () => {
  it('turns narrow metal at a bridged island into TRAPPED_ISLAND there, and stops calling that island bridged', () => {
    const warnings = [
      finding('ISLAND_BRIDGED', { count: 2, bridgeMm: 0.7 }, ctx, { locations: [at(10, 5, 1), at(40, 5, 1)] }),
    ];
    const errors = [finding('NECK_TOO_THIN', { count: 2 }, ctx, { locations: [at(10.5, 5.5), at(80, 3)] })];
    const out = blameRepairs(warnings, errors, 0.7, ctx);
    expect(out.errors.map((e) => [e.code, e.locations])).toEqual([
      ['NECK_TOO_THIN', [at(80, 3)]],
      ['TRAPPED_ISLAND', [at(10, 5, 1)]],
    ]);
    expect(out.warnings.map((w) => [w.code, w.locations])).toEqual([['ISLAND_BRIDGED', [at(40, 5, 1)]]]);
    expect(out.warnings[0]!.message).toContain('1 metal island');
  });

  it('turns a narrow opening where a neck was widened into NECK_TOO_THIN at the neck, keeping other narrow openings', () => {
    const warnings = [finding('NECK_THICKENED', { count: 1 }, ctx, { locations: [at(20, 2)] })];
    const errors = [
      finding('OPENING_TOO_SMALL', { count: 2 }, ctx, {
        locations: [at(20.4, 2.3, 0.2), at(60, 8, 0.2)],
        details: 'Narrowest parts at (20.4, 2.3) mm, (60, 8) mm; each must be at least 0.2 mm wide.',
      }),
    ];
    const out = blameRepairs(warnings, errors, 0.7, ctx);
    expect(out.warnings).toEqual([]);
    expect(out.errors.map((e) => [e.code, e.locations])).toEqual([
      ['OPENING_TOO_SMALL', [at(60, 8, 0.2)]],
      ['NECK_TOO_THIN', [at(20, 2)]],
    ]);
    expect(out.errors[0]!.details).toBe('Narrowest parts at (60, 8) mm; each must be at least 0.2 mm wide.');
  });

  it('refuses the island when a neck beside its bridge could not be widened without pinching an opening', () => {
    // The bar to a letter's counter left a sliver of metal against a stroke; widening it pinched the stroke.
    const warnings = [
      finding('ISLAND_BRIDGED', { count: 1, bridgeMm: 0.7 }, ctx, { locations: [at(82.63, 3.32, 0.75)] }),
      finding('NECK_THICKENED', { count: 1 }, ctx, { locations: [at(82.24, 4.48, 1.1)] }),
    ];
    const errors = [finding('OPENING_TOO_SMALL', { count: 1 }, ctx, { locations: [at(82.5, 4.9, 0.2)] })];
    const out = blameRepairs(warnings, errors, 0.7, ctx);
    expect(out.errors.map((e) => [e.code, e.locations])).toEqual([['TRAPPED_ISLAND', [at(82.63, 3.32, 0.75)]]]);
    expect(out.warnings).toEqual([]);
  });

  it('leaves refusals far from every change as they are', () => {
    const warnings = [finding('NECK_THICKENED', { count: 1 }, ctx, { locations: [at(20, 2)] })];
    const errors = [finding('NECK_TOO_THIN', { count: 1 }, ctx, { locations: [at(90, 9)] })];
    expect(blameRepairs(warnings, errors, 0.7, ctx)).toEqual({ warnings, errors });
  });
});
