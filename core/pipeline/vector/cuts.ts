/** A point on the strip in millimetres: x along the length from the left end, y across from the top. */
export type Point = [x: number, y: number];

/**
 * One cut: a closed region of air inside the strip (an opening, or material cut away at a
 * shaped end), as an outer ring and any rings of metal left inside it. Rings are closed
 * implicitly (the last point is not repeated).
 */
export interface CutPolygon {
  outer: Point[];
  holes: Point[][];
}
