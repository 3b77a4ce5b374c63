/**
 * The labeller (`test/helpers/artwork-label/`) on hand-made drawings, one house decision each:
 * what is cuttable as drawn, what the house repairs (and with which warning), what it refuses.
 */
import { describe, expect, it } from 'vitest';
import { disc, drawingPng, rect, type Cut, type Point } from '../helpers/cut-check/test-shapes.ts';
import { labelDesign, labelOf, type Defect } from '../helpers/artwork-label/index.ts';

const STRIP = { lengthMm: 40, widthMm: 14 };
/** 20 pixels a millimetre: 0.05 mm a drawing pixel. */
const PX = 20;

async function labelOfDrawing(cuts: Cut[], islands: Point[][] = []) {
  return labelDesign(await drawingPng(STRIP.lengthMm, STRIP.widthMm, cuts, PX, islands), STRIP);
}

const kinds = (defects: Defect[]) => [...new Set(defects.map((d) => `${d.kind} ${d.repairable}`))].sort();

describe('labelDesign on drawings of one defect each', () => {
  it('calls clean round holes cuttable, specks under the despeckle area included', async () => {
    // Despeckle area 0.0004 × 40 × 14 = 0.224 mm²: a hole of radius 0.2 mm (0.126 mm²) is a speck.
    const result = await labelOfDrawing([[disc(10, 7, 1.5)], [disc(25, 7, 2)], [disc(33, 7, 0.2)]]);
    expect(result.label).toBe('cuttable');
    expect(result.defects).toEqual([]);
    expect(result.reference.specks).toBe(1);
  });

  it('lets a pinch the checker cannot tell from the floor go either way, without deciding the label', async () => {
    // Two windows joined by a channel 0.19 mm wide: under the floor, within the checker's tolerance.
    const slot: Point[] = [
      [10, 5],
      [14, 5],
      [14, 6.905],
      [15, 6.905],
      [15, 5],
      [19, 5],
      [19, 9],
      [15, 9],
      [15, 7.095],
      [14, 7.095],
      [14, 9],
      [10, 9],
    ];
    const result = await labelOfDrawing([[slot]]);
    const pinch = result.defects.find((d) => d.kind === 'pinched-opening');
    expect(pinch?.borderline).toBe('floor');
    expect(result).toMatchObject({ label: 'cuttable', borderline: true, answer: 'either' });
  });

  it('calls an opening narrower than the floor everywhere repairable: it is filled', async () => {
    const result = await labelOfDrawing([[disc(10, 7, 1.5)], [rect(20, 5, 6, 0.12)]]);
    expect(kinds(result.defects)).toEqual(['narrow-opening true']);
    expect(result.label).toBe('repairable');
  });

  it('calls a pinched opening unrepairable and locates the pinch', async () => {
    const slot: Point[] = [
      [10, 5],
      [14, 5],
      [14, 6.95],
      [15, 6.95],
      [15, 5],
      [19, 5],
      [19, 9],
      [15, 9],
      [15, 7.05],
      [14, 7.05],
      [14, 9],
      [10, 9],
    ];
    const result = await labelOfDrawing([[slot]]);
    const pinch = result.defects.find((d) => d.kind === 'pinched-opening');
    expect(pinch).toBeDefined();
    expect(Math.hypot(pinch!.x - 14.5, pinch!.y - 7)).toBeLessThan(0.6);
    expect(result.label).toBe('unrepairable');
  });

  it('widens a thin bar between wide windows, and refuses one between slots with no room', async () => {
    const roomy = await labelOfDrawing([[rect(8, 3, 6, 8)], [rect(14.45, 3, 6, 8)]]);
    expect(kinds(roomy.defects)).toEqual(['thin-metal true']);
    expect(roomy.label).toBe('repairable');
    // 0.26 mm slots: taking 0.125 mm from each leaves 0.135 mm, under the floor by more than the checker's tolerance.
    const tight = await labelOfDrawing([[rect(10, 3, 0.26, 8)], [rect(10.71, 3, 0.26, 8)]]);
    expect(kinds(tight.defects)).toContain('thin-metal false');
    expect(tight.label).toBe('unrepairable');
    // A narrow slot facing the bar end-on only gets shorter: its width stays, so there is room.
    const endOn = await labelOfDrawing([[rect(8, 3, 6, 8)], [rect(14.45, 6.85, 4, 0.3)]]);
    expect(kinds(endOn.defects)).toEqual(['thin-metal true']);
  });

  it('widens a thin rim at the strip edge from the opening side only', async () => {
    const result = await labelOfDrawing([[disc(20, 2.05, 1.6)]]);
    const rim = result.defects.find((d) => d.kind === 'thin-metal');
    expect(rim?.repairable).toBe(true);
    expect(rim?.why).toContain('the strip edge');
    expect(result.label).toBe('repairable');
  });

  it('bridges an island near the wall, removes a small one out of reach, refuses a large one out of reach', async () => {
    const near = await labelOfDrawing([[rect(8, 2, 8, 10)]], [disc(10, 7, 0.8)]);
    expect(kinds(near.defects)).toEqual(['island true']);
    expect(near.defects[0]!.why).toContain('ISLAND_BRIDGED');
    const smallFar = await labelOfDrawing([[rect(5, 1, 30, 12)]], [disc(20, 7, 0.6)]);
    expect(smallFar.defects[0]!.why).toContain('ISLAND_REMOVED');
    expect(smallFar.label).toBe('repairable');
    const largeFar = await labelOfDrawing([[rect(5, 1, 30, 12)]], [disc(20, 7, 1.4)]);
    expect(kinds(largeFar.defects)).toEqual(['island false']);
    expect(largeFar.label).toBe('unrepairable');
  });

  it('refuses fine detail that is the bulk of the open area', async () => {
    const specks = Array.from({ length: 30 }, (_, n): Cut => [
      disc(4 + (n % 15) * 2.2, 4 + Math.floor(n / 15) * 5, 0.2),
    ]);
    const result = await labelOfDrawing([...specks, [disc(36, 7, 0.5)]]);
    expect(kinds(result.defects)).toEqual(['too-fine false']);
    expect(result.label).toBe('unrepairable');
  });
});

describe('labelOf', () => {
  const defect = (repairable: boolean, borderline?: 'floor' | 'repair'): Defect => ({
    kind: 'thin-metal',
    x: 0,
    y: 0,
    widthMm: 0.55,
    repairable,
    why: '',
    ...(borderline ? { borderline } : {}),
  });
  it('gives a design whose only defects may not be there the label it would have without them, flagged', () => {
    expect(labelOf([defect(false, 'floor')])).toEqual({ label: 'cuttable', borderline: true, answer: 'either' });
    expect(labelOf([defect(true, 'floor'), defect(true)])).toEqual({
      label: 'repairable',
      borderline: true,
      answer: 'ready',
    });
  });
  it('lets a defect whose repair is too close to call decide the label, flagged', () => {
    expect(labelOf([defect(false, 'repair')])).toEqual({ label: 'unrepairable', borderline: true, answer: 'either' });
    expect(labelOf([defect(true), defect(false)])).toEqual({
      label: 'unrepairable',
      borderline: false,
      answer: 'refused',
    });
    // A borderline defect that cannot tip the answer leaves it as the label says.
    expect(labelOf([defect(false), defect(true, 'repair')])).toEqual({
      label: 'unrepairable',
      borderline: true,
      answer: 'refused',
    });
  });
});
