import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roomyRateLimits } from './helpers/flows.ts';
import { servicePerFile } from './helpers/service.ts';
import { holeCentres, openCoreJob, readGrey, stripWithHoles, svgDocument, type Grey } from './helpers/svg-drawings.ts';

/*
 * What core.drawingFromSvg renders, read back from the PNG by sharp: the job's canvas whatever
 * the SVG says of its size, one grey channel with no alpha, ink where the SVG drew and white
 * elsewhere, the SVG's viewBox fitted into the canvas as documented (docs/decisions.md, "SVG
 * drawings"), and a document that renders too long stopped at the configured time.
 */
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const SCALE = Number(process.env.FC_RUNS ?? 1);
const runs = (numRuns: number) => ({
  numRuns: Math.round(numRuns * SCALE),
  ...(SEED === undefined ? {} : { seed: SEED }),
});

const CANVAS = { width: 1536, height: 1024 };
const INK = 0;
const PAPER = 255;

describe('SVG drawings rendered on the job canvas', () => {
  const service = servicePerFile({ config: { limits: roomyRateLimits } });

  async function render(svg: string): Promise<Grey> {
    const job = await openCoreJob(service.core);
    const png = await service.core.drawingFromSvg(job.row, svg);
    if (!png.ok) throw new Error(`refused: ${png.error.message}`);
    return readGrey(png.value);
  }

  /** Every pixel of the rectangle [x0, x1) x [y0, y1) at `level`, counted. */
  function offPixels(grey: Grey, x0: number, y0: number, x1: number, y1: number, level: number): number {
    let off = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (grey.at(x, y) !== level) off++;
    return off;
  }

  it('a strip with holes drawn on the hints: the canvas size, one grey channel, ink on the strip, white in the holes and the margin', async () => {
    const job = await openCoreJob(service.core);
    const s = job.drawing.stripPx;
    const png = await service.core.drawingFromSvg(job.row, stripWithHoles(job.drawing, 10, 20));
    if (!png.ok) throw new Error(png.error.message);
    const grey = await readGrey(png.value);
    expect(`${grey.width}x${grey.height}`).toBe(job.drawing.recommendedPixels);
    expect(grey.channels).toBe(1);
    expect(grey.hasAlpha).toBe(false);
    // The margin around the strip is paper, the strip's corners ink, each hole's middle paper.
    expect(offPixels(grey, 0, 0, grey.width, s.y, PAPER)).toBe(0);
    expect(offPixels(grey, 0, s.y + s.height, grey.width, grey.height, PAPER)).toBe(0);
    expect(offPixels(grey, 0, s.y, s.x, s.y + s.height, PAPER)).toBe(0);
    expect(offPixels(grey, s.x, s.y, s.x + 10, s.y + 10, INK)).toBe(0);
    expect(offPixels(grey, s.x + s.width - 10, s.y + s.height - 10, s.x + s.width, s.y + s.height, INK)).toBe(0);
    for (const c of holeCentres(s, 10)) {
      expect(offPixels(grey, c.x - 12, c.y - 12, c.x + 12, c.y + 12, PAPER), `hole at ${c.x},${c.y}`).toBe(0);
      expect(grey.at(c.x, c.y - 22), 'metal just outside the hole').toBe(INK);
    }
  });

  it('the canvas is the job’s, whatever width and height the SVG declares or its CSS gives it', async () => {
    for (const root of ['width="100000" height="100000" viewBox="0 0 1536 1024"', 'width="12" height="8"', '']) {
      const grey = await render(svgDocument('<rect x="1" y="1" width="5" height="5"/>', root));
      expect([grey.width, grey.height], root).toEqual([CANVAS.width, CANVAS.height]);
    }
    // CSS can size <svg> elements too; it does not size the canvas.
    const sized: Array<[root: string, sheet: string]> = [
      ['viewBox="0 0 10 10" style="width: 20000px !important; height: 9px"', ''],
      ['viewBox="0 0 10 10"', '<style>svg, :root { width: 10px !important; height: 10px !important }</style>'],
    ];
    for (const [root, sheet] of sized) {
      const grey = await render(svgDocument(`${sheet}<rect width="5" height="5"/>`, root));
      expect([grey.width, grey.height], root + sheet).toEqual([CANVAS.width, CANVAS.height]);
    }
  });

  it('generated drawings: ink exactly where the rectangles are, white everywhere else, at any viewBox scale', async () => {
    const syntax = fc.constantFrom('rect', 'path', 'polygon', 'translated', 'styled', 'class');
    // Boxes in canvas pixels, on even pixels so that at every scale their edges are whole user units,
    // and inside the 1536 x 1024 canvas (the widest, 60 px, from x = 1476 at most).
    const box = fc
      .record({
        x: fc.integer({ min: 0, max: 738 }),
        y: fc.integer({ min: 0, max: 480 }),
        w: fc.integer({ min: 1, max: 30 }),
        h: fc.integer({ min: 1, max: 30 }),
        syntax,
      })
      .map((b) => ({ ...b, x: 2 * b.x, y: 2 * b.y, w: 2 * b.w, h: 2 * b.h }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0.5, 1, 2), fc.array(box, { minLength: 1, maxLength: 8 }), async (k, boxes) => {
        // k canvas pixels per user unit.
        const user = boxes.map((b) => ({ ...b, x: b.x / k, y: b.y / k, w: b.w / k, h: b.h / k }));
        const shapes = user.map(({ x, y, w, h, syntax: form }) => {
          if (form === 'rect') return `<rect x="${x}" y="${y}" width="${w}" height="${h}"/>`;
          if (form === 'path') return `<path d="M${x} ${y}h${w}v${h}H${x}Z"/>`;
          if (form === 'polygon') return `<polygon points="${x},${y} ${x + w},${y} ${x + w},${y + h} ${x},${y + h}"/>`;
          if (form === 'translated')
            return `<g transform="translate(${x} ${y})"><rect width="${w}" height="${h}"/></g>`;
          if (form === 'styled') return `<rect x="${x}" y="${y}" width="${w}" height="${h}" style="fill:#000000"/>`;
          return `<rect class="ink" x="${x}" y="${y}" width="${w}" height="${h}" fill="#fff"/>`;
        });
        const sheet = '<style>.ink { fill: black }</style>';
        const grey = await render(svgDocument(sheet + shapes.join(''), `viewBox="0 0 ${1536 / k} ${1024 / k}"`));
        const px = boxes.map((b) => ({ x0: b.x, y0: b.y, x1: b.x + b.w, y1: b.y + b.h }));
        for (const r of px) {
          expect(grey.at(r.x0, r.y0)).toBe(INK);
          expect(grey.at(r.x1 - 1, r.y1 - 1)).toBe(INK);
          expect(grey.at((r.x0 + r.x1 - 1) / 2, (r.y0 + r.y1 - 1) / 2)).toBe(INK);
        }
        const inked = (x: number, y: number) => px.some((r) => x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1);
        for (let y = 1; y < CANVAS.height; y += 7) {
          for (let x = 3; x < CANVAS.width; x += 11) {
            expect(grey.at(x, y), `${x},${y}`).toBe(inked(x, y) ? INK : PAPER);
          }
        }
      }),
      runs(12),
    );
    // Twelve renders, each in a process of its own: 2.6 s alone, but once past 30 s with the
    // real-pipeline files running beside it on two cores.
  }, 120_000);

  it('the same SVG text renders to the same bytes', async () => {
    const job = await openCoreJob(service.core);
    const svg = stripWithHoles(job.drawing, 7, 15);
    const [a, b] = await Promise.all([
      service.core.drawingFromSvg(job.row, svg),
      service.core.drawingFromSvg(job.row, svg),
    ]);
    expect(a.ok && b.ok && a.value.equals(b.value)).toBe(true);
  });
});

describe('where an SVG of another shape lands on the canvas', () => {
  const service = servicePerFile({ config: { limits: roomyRateLimits } });

  async function inkBox(root: string, body: string) {
    const job = await openCoreJob(service.core);
    const png = await service.core.drawingFromSvg(job.row, svgDocument(body, root));
    if (!png.ok) throw new Error(png.error.message);
    const grey = await readGrey(png.value);
    let left = Infinity;
    let top = Infinity;
    let right = -1;
    let bottom = -1;
    for (let y = 0; y < grey.height; y++) {
      for (let x = 0; x < grey.width; x++) {
        if (grey.at(x, y) >= 128) continue;
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
    return { left, top, width: right - left + 1, height: bottom - top + 1 };
  }

  it('a wider viewBox (3:1) is scaled to the canvas width and centred vertically', async () => {
    // 1536 / 300 = 5.12 px per unit: 1536 x 512, with 256 px of white above and below.
    expect(await inkBox('viewBox="0 0 300 100"', '<rect width="300" height="100"/>')).toEqual({
      left: 0,
      top: 256,
      width: 1536,
      height: 512,
    });
  });

  it('a square viewBox is scaled to the canvas height and centred horizontally', async () => {
    expect(await inkBox('viewBox="-50 -50 100 100"', '<rect x="-50" y="-50" width="100" height="100"/>')).toEqual({
      left: 256,
      top: 0,
      width: 1024,
      height: 1024,
    });
  });

  it('a strip drawn in millimetres fills the canvas width at its own ratio', async () => {
    const box = await inkBox('viewBox="0 0 155 20"', '<rect width="155" height="20"/>');
    expect(box.left).toBe(0);
    expect(box.width).toBe(1536);
    expect(box.height).toBeCloseTo((1536 * 20) / 155, -0.5);
    expect(box.top + box.height / 2).toBeCloseTo(512, -0.5);
  });

  it('without a viewBox, width and height in millimetres stand for it', async () => {
    // 155 mm x 20 mm is 585.8 x 75.6 user units (px at 96 per inch): the same placement as above.
    const box = await inkBox('width="155mm" height="20mm"', '<rect width="585.83" height="75.59"/>');
    expect(box.width).toBe(1536);
    expect(box.height).toBeCloseTo((1536 * 20) / 155, -0.5);
  });

  it('without a viewBox or a size, the SVG is in canvas pixels', async () => {
    expect(await inkBox('', '<rect x="100" y="200" width="50" height="40"/>')).toEqual({
      left: 100,
      top: 200,
      width: 50,
      height: 40,
    });
  });

  it('the SVG’s own preserveAspectRatio is honoured (none stretches to the canvas)', async () => {
    expect(
      await inkBox('viewBox="0 0 100 100" preserveAspectRatio="none"', '<rect x="50" y="50" width="50" height="50"/>'),
    ).toEqual({ left: 768, top: 512, width: 768, height: 512 });
  });
});

describe('a document that renders too long', () => {
  const svg = { maxBytes: 1_000_000, maxElements: 20_000, maxDepth: 64, renderTimeoutSec: 2, concurrentRenders: 2 };
  const service = servicePerFile({ config: { svg, limits: roomyRateLimits } });

  it('is stopped at svg.renderTimeoutSec with FILE_TOO_LARGE, and its render process is gone', async () => {
    // One legal path of 60,000 vertices crossing itself everywhere: minutes of librsvg.
    let seed = 7;
    const next = () => (seed = (seed * 16807) % 2147483647) % 1000;
    const points = Array.from({ length: 60_000 }, () => `${next() * 1.5} ${next()}`).join(' ');
    const job = await openCoreJob(service.core);
    const started = performance.now();
    const result = await service.core.drawingFromSvg(job.row, svgDocument(`<path d="M${points}Z"/>`));
    const elapsed = performance.now() - started;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('FILE_TOO_LARGE');
    expect(result.error.message).toBe('The SVG took longer than 2 seconds to render and was stopped.');
    expect(result.error.agent_instruction).toMatch(/renders within 2 seconds/);
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(elapsed).toBeLessThan(4000);
    // ps exits 1 when the process has no children at all.
    const children = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).stdout;
    expect(children).not.toContain('render-child');
  });
});
