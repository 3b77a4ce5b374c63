/**
 * Where a region's erosion cores join: the region is rebuilt from its cores by adding its other
 * pixels widest first (a merge tree over the half-width). When a pixel joins two groups that each
 * hold a core, it is the bottleneck of the widest path between them: the neck or pinch.
 *
 * A join counts only where both groups rise above it by more than `minRise`: a half-width is read
 * to the nearest pixel of the other phase, so along a slanted wall it wobbles by up to half a
 * pixel, and where the true width grows steadily past the erosion threshold (the corner of a
 * square knob, a wedge widening into the body) that wobble alone can leave a core a pixel or two
 * across, cut off from the body by a "join" no narrower than itself.
 */
import { labelComponents } from './labels.ts';

export interface Saddle {
  /** Grid index of the joining pixel. */
  index: number;
  /** Its half-width, mm. */
  halfWidth: number;
}

/**
 * Every pixel at which two groups holding erosion cores first join when the region `inRegion`
 * is rebuilt widest first (ties within `step` mm in any order), both groups' widest pixels more
 * than `minRise` mm of half-width above it; one saddle per join. `scratch` (nx × ny, overwritten)
 * saves allocating the union-find.
 */
export function findSaddles(
  inRegion: Uint8Array,
  isCore: Uint8Array,
  halfWidth: Float32Array,
  nx: number,
  ny: number,
  step: number,
  minRise: number,
  scratch?: Int32Array,
): Saddle[] {
  const count = nx * ny;
  // Union-find over pixels, in the core labelling's own array: -1 not added yet; each core starts
  // as one set rooted at its first pixel.
  const cores = labelComponents(isCore, 1, nx, ny, 4, scratch);
  const parent = cores.labels;
  const hasCore = new Uint8Array(count);
  const rootOfCore = new Int32Array(cores.count).fill(-1);
  // The widest half-width of each core-holding set, kept at its root.
  const peak = new Float32Array(count);
  let others = 0;
  let top = 0;
  for (let k = 0; k < count; k++) {
    const core = parent[k]!;
    if (core >= 0) {
      if (rootOfCore[core] === -1) {
        rootOfCore[core] = k;
        hasCore[k] = 1;
      }
      parent[k] = rootOfCore[core]!;
      if (halfWidth[k]! > peak[parent[k]!]!) peak[parent[k]!] = halfWidth[k]!;
    } else if (inRegion[k]) {
      others++;
      if (halfWidth[k]! > top) top = halfWidth[k]!;
    }
  }
  if (cores.count < 2) return [];

  // Counting sort of the other pixels by half-width, widest first.
  const buckets = Math.ceil(top / step) + 1;
  const keys = new Int32Array(others);
  const pixels = new Int32Array(others);
  const starts = new Int32Array(buckets + 1);
  let m = 0;
  for (let k = 0; k < count; k++) {
    if (!inRegion[k] || parent[k] !== -1) continue;
    const bucket = Math.min(buckets - 1, Math.max(0, Math.floor(halfWidth[k]! / step)));
    const key = buckets - 1 - bucket;
    keys[m] = key;
    pixels[m++] = k;
    starts[key + 1]!++;
  }
  for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b]!;
  const order = new Int32Array(others);
  for (let t = 0; t < others; t++) order[starts[keys[t]!]!++] = pixels[t]!;

  const find = (a: number): number => {
    let root = a;
    while (parent[root] !== root) root = parent[root]!;
    while (parent[a] !== root) {
      const next = parent[a]!;
      parent[a] = root;
      a = next;
    }
    return root;
  };
  const saddles: Saddle[] = [];
  const join = (k: number, q: number): void => {
    if (parent[q] === -1) return;
    const rq = find(q);
    const rk = find(k);
    if (rq === rk) return;
    if (!hasCore[rk]) {
      parent[rk] = rq; // a set holding a core keeps its root
      return;
    }
    if (!hasCore[rq]) {
      parent[rq] = rk;
      return;
    }
    if (Math.min(peak[rk]!, peak[rq]!) - halfWidth[k]! > minRise) saddles.push({ index: k, halfWidth: halfWidth[k]! });
    parent[rq] = rk;
    if (peak[rq]! > peak[rk]!) peak[rk] = peak[rq]!;
  };
  for (let t = 0; t < others; t++) {
    const k = order[t]!;
    parent[k] = k;
    const i = k % nx;
    if (i > 0) join(k, k - 1);
    if (i < nx - 1) join(k, k + 1);
    if (k >= nx) join(k, k - nx);
    if (k < count - nx) join(k, k + nx);
  }
  return saddles;
}
