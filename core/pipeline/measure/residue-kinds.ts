import { componentBoxes, labelAt, labelComponents, type ComponentBox, type Labels } from '../raster/components.ts';

/*
 * What each piece of air narrower than a disc is, beside the air the disc reaches ("wide"): a dead
 * end, which a corner or the point of an opening leaves (a tip), or a piece that is drawn.
 */

/** A dead end of the wide air spanning at most the tip extent: a corner or point of an opening. */
export const TIP = 0;
/** Joins two or more distinct wide parts: where an opening is pinched. */
export const BETWEEN = 1;
/** Meets one wide part at two separate stretches: a narrow stretch of a ring-shaped opening. */
export const LOOP = 2;
/** A dead end reaching farther than any corner does: a narrow arm drawn so. */
export const ARM = 3;

interface ResidueParts {
  /** The residue's 4-connected components. */
  parts: Labels;
  /** Per component (1..count): TIP, BETWEEN, LOOP or ARM. */
  kind: Uint8Array;
  boxes: ComponentBox[];
}

/**
 * Classifies the components of `residue` (air the disc does not reach) by how they meet `wide`
 * (the air it reaches, labelled). A corner's tip lies within `tipExtentPx` across its box: the
 * residue of a 10° corner reaches about 1.3 mm past the disc.
 */
export function classifyResidue(
  residue: Uint8Array,
  wide: Labels,
  w: number,
  h: number,
  tipExtentPx: number,
): ResidueParts {
  const parts = labelComponents(residue, w, h, 4);
  const firstNeighbour = new Int32Array(parts.count + 1);
  const kind = new Uint8Array(parts.count + 1);
  // The residue pixels beside wide air, with their component: a dead end meets it along one stretch.
  const contacts: number[] = [];
  const contactLabels: number[] = [];
  const meet = (k: number, other: number): boolean => {
    if (!other) return false;
    if (!firstNeighbour[k]) firstNeighbour[k] = other;
    else if (firstNeighbour[k] !== other) kind[k] = BETWEEN;
    return true;
  };
  const { start, end, label } = parts.runs;
  for (let r = 0; r < label.length; r++) {
    const k = label[r]!;
    const y = Math.floor(start[r]! / w);
    for (let i = start[r]!; i < end[r]! && !kind[k]; i++) {
      const x = i - y * w;
      let touches = false;
      if (x > 0) touches = meet(k, labelAt(wide, i - 1)) || touches;
      if (x < w - 1) touches = meet(k, labelAt(wide, i + 1)) || touches;
      if (y > 0) touches = meet(k, labelAt(wide, i - w)) || touches;
      if (y < h - 1) touches = meet(k, labelAt(wide, i + w)) || touches;
      if (touches) {
        contacts.push(i);
        contactLabels.push(k);
      }
    }
  }
  markLoops(contacts, contactLabels, kind, w);
  const boxes = componentBoxes(parts, w);
  for (let k = 1; k <= parts.count; k++) {
    if (kind[k] !== TIP) continue;
    if (extentOf(boxes[k]!) > tipExtentPx) kind[k] = ARM;
  }
  return { parts, kind, boxes };
}

/** The diagonal of a component's box, in pixels: how far it spans. */
export const extentOf = (box: ComponentBox): number => Math.hypot(box.x1 - box.x0 + 1, box.y1 - box.y0 + 1);

/**
 * Marks as loops the components whose contact pixels with the wide air fall into two or more
 * separate stretches (8-connected). Union-find over the contact pixels, which come in raster order
 * (`classifyResidue` walks the runs so): the neighbours already met, the three above and the one to
 * the left, are found by a cursor that follows a row behind, not by a lookup per neighbour.
 */
function markLoops(contacts: number[], labels: number[], kind: Uint8Array, w: number): void {
  const parent = Int32Array.from(contacts, (_, t) => t);
  const find = (a: number): number => {
    while (parent[a] !== a) a = parent[a] = parent[parent[a]!]!;
    return a;
  };
  const join = (s: number, t: number): void => {
    if (labels[s] === labels[t]) parent[find(s)] = find(t);
  };
  let above = 0;
  for (let t = 0; t < contacts.length; t++) {
    const i = contacts[t]!;
    const x = i % w;
    // Four of the eight neighbours suffice: each pair is met from its other pixel too.
    while (contacts[above]! < i - w - 1) above++;
    for (let s = above; s < t && contacts[s]! <= i - w + 1; s++) {
      const dx = contacts[s]! - (i - w);
      if ((dx === -1 && x === 0) || (dx === 1 && x === w - 1)) continue;
      join(s, t);
    }
    if (t > 0 && x > 0 && contacts[t - 1] === i - 1) join(t - 1, t);
  }
  const stretchOf = new Map<number, number>();
  for (let t = 0; t < contacts.length; t++) {
    const k = labels[t]!;
    if (kind[k]) continue;
    const root = find(t);
    const seen = stretchOf.get(k);
    if (seen === undefined) stretchOf.set(k, root);
    else if (seen !== root) kind[k] = LOOP;
  }
}
