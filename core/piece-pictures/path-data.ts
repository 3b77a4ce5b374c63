/**
 * SVG path data in tenths of a pixel, written as integers (the element that holds it is scaled by
 * `TENTH`): finer than any antialiasing shows, and an integer turns into text several times faster
 * than a decimal, which matters for lace files of tens of thousands of points. A point that rounds
 * to the one before it is left out.
 */
export class PathData {
  private d = '';
  private lastX = NaN;
  private lastY = NaN;

  move(x: number, y: number): void {
    this.lastX = Math.round(x * 10);
    this.lastY = Math.round(y * 10);
    this.d += `M${this.lastX} ${this.lastY}`;
  }

  line(x: number, y: number): void {
    const tx = Math.round(x * 10);
    const ty = Math.round(y * 10);
    if (tx === this.lastX && ty === this.lastY) return;
    this.d += `L${tx} ${ty}`;
    this.lastX = tx;
    this.lastY = ty;
  }

  close(): void {
    this.d += 'Z';
  }

  toString(): string {
    return this.d;
  }
}

/** The transform that puts `PathData` (tenths) back into pixels. */
export const TENTH = 'scale(0.1)';

/** A pixel length in the tenths `PathData` writes (stroke widths, blurs, offsets inside a `TENTH` element). */
export const tenths = (px: number): number => Math.round(px * 10);

/**
 * Gives the event loop a turn every `sliceMs` while a long drawing is built: call it between
 * pieces of work; it resolves at once (without yielding) until the slice is used up.
 */
export function pacer(sliceMs: number): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}

export type Pace = ReturnType<typeof pacer>;
