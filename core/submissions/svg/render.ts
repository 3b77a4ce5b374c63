import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Canvas } from './placement.ts';

export type RenderOutcome =
  | { kind: 'png'; png: Buffer }
  | { kind: 'timeout' }
  /** `refused`: the renderer said the document cannot be drawn; otherwise the process failed. */
  | { kind: 'failed'; refused: boolean; reason: string };

/** Draws a checked SVG document (see `rebuildSvg`) on the canvas as an 8-bit greyscale PNG. */
export interface SvgRenderer {
  render(svg: string, canvas: Canvas, timeoutMs: number): Promise<RenderOutcome>;
}

const childScript = fileURLToPath(new URL('./render-child.ts', import.meta.url));
const REFUSED_EXIT = 2;
const STDERR_KEPT = 2000;

/**
 * Renders in a child process per document, at most `concurrency` at once (the rest wait their
 * turn), each killed once it runs `timeoutMs`: the one bound that holds for any document.
 * The child gets an empty environment: it needs nothing of the service's.
 */
export function createSvgRenderer(options: { concurrency: number }): SvgRenderer {
  let running = 0;
  const waiting: Array<() => void> = [];
  const acquire = (): Promise<void> => {
    if (running < options.concurrency) {
      running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return {
    async render(svg, canvas, timeoutMs) {
      await acquire();
      try {
        return await renderInChild(svg, canvas, timeoutMs);
      } finally {
        release();
      }
    },
  };
}

function renderInChild(svg: string, canvas: Canvas, timeoutMs: number): Promise<RenderOutcome> {
  // A greyscale PNG of the canvas is far below this even for noise; more means something is wrong.
  const maxOutput = canvas.width * canvas.height * 2 + 65_536;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [childScript, String(canvas.width), String(canvas.height)], {
      env: {},
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let errText = '';
    let verdict: RenderOutcome | undefined;
    const stop = (outcome: RenderOutcome) => {
      verdict ??= outcome;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop({ kind: 'timeout' }), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutput) stop({ kind: 'failed', refused: false, reason: 'output larger than expected' });
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errText.length < STDERR_KEPT) errText += chunk.toString('utf8').slice(0, STDERR_KEPT - errText.length);
    });
    // A child killed before it read everything closes its stdin: nothing to report beyond the exit.
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(verdict ?? { kind: 'failed', refused: false, reason: `render process failed: ${String(error)}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (verdict) return resolve(verdict);
      if (code === 0) return resolve({ kind: 'png', png: Buffer.concat(out) });
      resolve({
        kind: 'failed',
        refused: code === REFUSED_EXIT,
        reason: `render process ended with ${signal ?? `code ${code}`}: ${errText}`,
      });
    });
    child.stdin.end(svg, 'utf8');
  });
}
