// Derived from Potrace, Copyright (C) 2001-2013 Peter Selinger, through the JavaScript port in
// the npm package `potrace` 2.1.8. GPL-2.0: see ./NOTICE.md for the sources and our changes.
import { optimisedCurve } from './opticurve.ts';
import { optimalPolygon } from './polygon.ts';
import type { Scratch } from './scratch.ts';
import { reverseVertices, smoothCurve, smoothedCurve } from './smooth.ts';
import type { PixelOutline, PotraceCurve, PotraceOptions } from './types.ts';
import { adjustVertices } from './vertices.ts';

/**
 * Potrace's processing of one path (the port's `_processPath`): optimal polygon, vertex
 * adjustment, reversal of a hole, smoothing and, if asked, curve optimisation.
 */
export function smoothOutline(outline: PixelOutline, hole: boolean, options: PotraceOptions, s: Scratch): PotraceCurve {
  const { pt } = outline;
  const n = pt.length;
  s.ensure(n);
  for (let i = 0; i < n; i++) {
    s.x[i] = pt[i]!.x;
    s.y[i] = pt[i]!.y;
  }
  const m = optimalPolygon(s, n);
  adjustVertices(s, n, m);
  if (hole) reverseVertices(s, m);
  smoothCurve(s, m, options.alphaMax);
  return options.optCurve ? optimisedCurve(s, m) : smoothedCurve(s, m);
}
