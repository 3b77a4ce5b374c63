import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Canvas } from './placement.ts';

type RenderOutcome =
  | { kind: 'png'; png: Buffer }
  | { kind: 'timeout' }
  /** `refused`: the renderer said the document cannot be drawn; otherwise the process failed. */
  | { kind: 'failed'; refused: boolean; reason: string };

/** Draws a checked SVG document (see `rebuildSvg`) on the canvas as an 8-bit greyscale PNG. */
export interface SvgRenderer {
  render(svg: string, canvas: Canvas, timeoutMs: number): Promise<RenderOutcome>;
  /** Ends the render processes; a render asked for later starts one again. */
  close(): void;
}

const childScript = fileURLToPath(new URL('./render-child.ts', import.meta.url));
/** A process idle this long leaves, so an idle service holds no renderer's memory. */
const RENDER_PROCESS_IDLE_MS = 60_000;
/** A process leaves after this many renders, so whatever librsvg keeps cannot pile up. */
const RENDERS_PER_PROCESS = 200;

type Answer = { id: number; png: Uint8Array } | { id: number; refused: boolean; reason: string };

/** One warm render process and what it is doing. */
interface RenderProcess {
  child: ChildProcess;
  renders: number;
  idleTimer?: ReturnType<typeof setTimeout>;
  /** The render it runs now: settles with the process's answer or its end. */
  current?: { id: number; settle: (outcome: RenderOutcome) => void };
}

/**
 * Renders in at most `concurrency` child processes, each kept warm for the next render (a
 * process costs about 0.3 s to start, a warm render of a plain drawing 20-40 ms) until it has been idle `RENDER_PROCESS_IDLE_MS` or has
 * rendered `RENDERS_PER_PROCESS` documents. A render waits its turn when all are busy, and the
 * process running one past `timeoutMs` is killed (the one bound that holds for any document) and
 * replaced on demand. The processes get an empty environment: they need nothing of the service's.
 */
export function createSvgRenderer(options: {
  concurrency: number;
  idleMs?: number;
  rendersPerProcess?: number;
}): SvgRenderer {
  const idleMs = options.idleMs ?? RENDER_PROCESS_IDLE_MS;
  const rendersPerProcess = options.rendersPerProcess ?? RENDERS_PER_PROCESS;
  const all = new Set<RenderProcess>();
  const idle: RenderProcess[] = [];
  const waiting: Array<(process: RenderProcess | undefined) => void> = [];
  let live = 0;
  let nextId = 1;

  const start = (): RenderProcess => {
    const child = fork(childScript, [], { env: {}, execArgv: [], serialization: 'advanced', stdio: 'ignore' });
    // A warm process never keeps the service alive.
    child.unref();
    child.channel?.unref();
    const process: RenderProcess = { child, renders: 0 };
    all.add(process);
    live++;
    child.on('message', (answer: Answer) => {
      if (process.current?.id !== answer.id) return;
      process.current.settle(
        'png' in answer
          ? { kind: 'png', png: Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength) }
          : { kind: 'failed', refused: answer.refused, reason: answer.reason },
      );
    });
    child.on('exit', (code, signal) => {
      live--;
      all.delete(process);
      clearTimeout(process.idleTimer);
      const at = idle.indexOf(process);
      if (at >= 0) idle.splice(at, 1);
      process.current?.settle({
        kind: 'failed',
        refused: false,
        reason: `render process ended with ${signal ?? `code ${code}`}`,
      });
      // A waiting render may start a process of its own now.
      if (waiting.length > 0 && live < options.concurrency) waiting.shift()!(undefined);
    });
    child.on('error', () => child.kill('SIGKILL'));
    return process;
  };

  const acquire = (): Promise<RenderProcess> => {
    const warm = idle.pop();
    if (warm) {
      clearTimeout(warm.idleTimer);
      return Promise.resolve(warm);
    }
    if (live < options.concurrency) return Promise.resolve(start());
    return new Promise((resolve) => waiting.push((handed) => resolve(handed ?? start())));
  };

  const release = (process: RenderProcess) => {
    if (process.child.killed || process.child.exitCode !== null) return;
    if (process.renders >= rendersPerProcess) {
      process.child.kill('SIGKILL');
      return;
    }
    const next = waiting.shift();
    if (next) return next(process);
    process.idleTimer = setTimeout(() => process.child.kill('SIGKILL'), idleMs);
    process.idleTimer.unref();
    idle.push(process);
  };

  return {
    async render(svg, canvas, timeoutMs) {
      const process = await acquire();
      const id = nextId++;
      process.renders++;
      // A greyscale PNG of the canvas is far below this even for noise; more means something is wrong.
      const maxOutput = canvas.width * canvas.height * 2 + 65_536;
      const outcome = await new Promise<RenderOutcome>((resolve) => {
        const timer = setTimeout(() => {
          settle({ kind: 'timeout' });
          process.child.kill('SIGKILL');
        }, timeoutMs);
        const settle = (result: RenderOutcome) => {
          if (process.current?.id !== id) return;
          process.current = undefined;
          clearTimeout(timer);
          resolve(result);
        };
        process.current = { id, settle };
        process.child.send({ id, svg, width: canvas.width, height: canvas.height }, (error) => {
          if (error) settle({ kind: 'failed', refused: false, reason: `render process unreachable: ${error.message}` });
        });
      });
      if (outcome.kind === 'png' && outcome.png.length > maxOutput) {
        process.child.kill('SIGKILL');
        return { kind: 'failed', refused: false, reason: 'output larger than expected' };
      }
      release(process);
      return outcome;
    },
    close() {
      for (const process of all) process.child.kill('SIGKILL');
    },
  };
}
