import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createSvgRenderer, type SvgRenderer } from '../core/submissions/svg/render-pool.ts';
import { svgDocument } from './helpers/svg-drawings.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * The SVG render processes (core/submissions/svg/render-pool.ts), seen from outside: the render
 * processes this test process has (`ps`), and the PNGs they answer.
 */

const canvas = { width: 1536, height: 1024 };
const strip = (holes: number) =>
  svgDocument(
    `<rect x="64" y="421" width="1408" height="182"/>${Array.from(
      { length: holes },
      (_, i) => `<circle cx="${120 + i * 60}" cy="512" r="20" fill="#fff"/>`,
    ).join('')}`,
  );
/** One legal path of 60,000 vertices crossing itself everywhere: minutes of librsvg. */
function endless(): string {
  let seed = 7;
  const next = () => (seed = (seed * 16807) % 2147483647) % 1000;
  return svgDocument(`<path d="M${Array.from({ length: 60_000 }, () => `${next() * 1.5} ${next()}`).join(' ')}Z"/>`);
}

/** The pids of this process's render processes now. */
function renderPids(): number[] {
  const listing = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).stdout;
  return listing
    .split('\n')
    .filter((line) => line.includes('render-child'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

let renderer: SvgRenderer | undefined;
afterEach(async () => {
  renderer?.close();
  renderer = undefined;
  await waitFor('the render processes to end', async () => renderPids().length === 0);
});

const isPng = (outcome: Awaited<ReturnType<SvgRenderer['render']>>) =>
  outcome.kind === 'png' && outcome.png.subarray(1, 4).toString('latin1') === 'PNG';

describe('the SVG render processes', () => {
  it('keeps a process warm: renders one after another run in the same process', async () => {
    renderer = createSvgRenderer({ concurrency: 2 });
    expect(renderPids()).toEqual([]);
    expect(isPng(await renderer.render(strip(3), canvas, 10_000))).toBe(true);
    const [first] = renderPids();
    expect(first).toBeGreaterThan(0);
    for (const holes of [4, 5, 6]) expect(isPng(await renderer.render(strip(holes), canvas, 10_000))).toBe(true);
    expect(renderPids()).toEqual([first]);
  });

  it('runs at most `concurrency` processes, however many renders are asked for at once', async () => {
    renderer = createSvgRenderer({ concurrency: 2 });
    let most = 0;
    const sampling = setInterval(() => (most = Math.max(most, renderPids().length)), 20);
    const outcomes = await Promise.all(
      [3, 4, 5, 6, 7, 8].map((holes) => renderer!.render(strip(holes), canvas, 10_000)),
    );
    clearInterval(sampling);
    expect(outcomes.every(isPng)).toBe(true);
    expect(renderPids().length).toBeLessThanOrEqual(2);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('kills the process of a render past its time limit, and the next render starts a fresh one', async () => {
    renderer = createSvgRenderer({ concurrency: 1 });
    expect(isPng(await renderer.render(strip(3), canvas, 10_000))).toBe(true);
    const [warm] = renderPids();
    const started = performance.now();
    expect(await renderer.render(endless(), canvas, 500)).toEqual({ kind: 'timeout' });
    expect(performance.now() - started).toBeLessThan(3_000);
    await waitFor('the timed-out process to be gone', async () => !renderPids().includes(warm!));
    expect(isPng(await renderer.render(strip(4), canvas, 10_000))).toBe(true);
    expect(renderPids()).toHaveLength(1);
    expect(renderPids()).not.toContain(warm);
  });

  it('ends an idle process after the idle time, and one that has rendered its share', async () => {
    renderer = createSvgRenderer({ concurrency: 1, idleMs: 300, rendersPerProcess: 2 });
    expect(isPng(await renderer.render(strip(3), canvas, 10_000))).toBe(true);
    const [first] = renderPids();
    expect(isPng(await renderer.render(strip(4), canvas, 10_000))).toBe(true);
    await waitFor('the process to leave after its two renders', async () => !renderPids().includes(first!));
    expect(isPng(await renderer.render(strip(5), canvas, 10_000))).toBe(true);
    expect(renderPids()).toHaveLength(1);
    await waitFor('the idle process to leave', async () => renderPids().length === 0);
  });

  it('answers a document the renderer cannot draw as refused, and keeps the process for the next', async () => {
    renderer = createSvgRenderer({ concurrency: 1 });
    const refused = await renderer.render('<svg xmlns="http://www.w3.org/2000/svg"><rect', canvas, 10_000);
    expect(refused).toMatchObject({ kind: 'failed', refused: true });
    const [process] = renderPids();
    expect(isPng(await renderer.render(strip(3), canvas, 10_000))).toBe(true);
    expect(renderPids()).toEqual([process]);
  });
});
