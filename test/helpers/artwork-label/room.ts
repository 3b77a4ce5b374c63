/**
 * Is there room to widen thin metal? Measured on the checker's raster of the faithful file with a
 * distance transform of the air of our own, near the place only: widening metal of width w to
 * `widenToMm` moves the walls beside it into the air by the missing width, half from each side
 * (all of it from one side when the other is the strip's edge, which cannot move). The air on a
 * side keeps the opening floor when some of its pixels, no farther from the place than the new
 * wall plus half the floor, lie at least the wall's shift plus half the floor from the metal:
 * a disc as wide as the floor still fits beside the widened metal there.
 */
import { distanceTransform } from '../cut-check/distance-transform.ts';
import type { LabelledGrid } from '../cut-check/types.ts';
import { HOUSE, near } from './house-rules.ts';

/** One side of a thin place: an opening (its label), the air round the piece, or the strip's edge. */
export interface Side {
  /** Air label on the checker's raster: n ≥ 1 an opening, 0 the air round the piece inside the strip, -2 the strip's edge. */
  air: number;
  shiftMm: number;
  /** The widest half-width of that air near the place, mm (Infinity at the strip's edge). */
  roomMm: number;
  needMm: number;
}

export interface Room {
  sides: Side[];
  fits: boolean;
  borderline: boolean;
}

const EDGE = -2;

/** Where the air is beside a thin place of width `widthMm`, and whether widening it keeps the opening floor. */
export function roomToWiden(grid: LabelledGrid, place: { x: number; y: number; widthMm: number }, tolMm: number): Room {
  const { nx, ny, pad, dx, dy, labels } = grid;
  const rho = Math.max(dx, dy);
  const w = Math.max(0, place.widthMm);
  const missing = Math.max(0, HOUSE.widenToMm - w);
  const half = HOUSE.rules.minOpeningMm / 2;
  // Pixels up to twice the tolerance beyond the new wall plus half the floor are read, so that
  // wide air measures clearly more than it needs (not a tie with it).
  const beyond = 2 * tolMm + 2 * rho;
  const reach = w / 2 + missing + half + beyond;
  // The crop reaches a whole shift plus half the floor beyond every pixel read, so each of their
  // distances to the metal that matters is found inside it.
  const crop = reach + missing + half;
  const ci = Math.floor(place.x / dx) + pad;
  const cj = Math.floor(place.y / dy) + pad;
  const ri = Math.ceil(crop / dx) + 2;
  const rj = Math.ceil(crop / dy) + 2;
  const i0 = Math.max(0, ci - ri);
  const j0 = Math.max(0, cj - rj);
  const cw = Math.min(nx, ci + ri + 1) - i0;
  const ch = Math.min(ny, cj + rj + 1) - j0;
  const metal = new Uint8Array(cw * ch);
  for (let j = 0; j < ch; j++)
    for (let i = 0; i < cw; i++) metal[j * cw + i] = labels[(j + j0) * nx + i + i0]! < 0 ? 1 : 0;
  const toMetal = distanceTransform(metal, 1, cw, ch, dx, dy).sq;
  const px = place.x + pad * dx;
  const py = place.y + pad * dy;
  const airAt = (i: number, j: number): number => {
    const label = labels[(j + j0) * nx + i + i0]!;
    const gi = i + i0;
    const gj = j + j0;
    const beyond = gi < pad || gj < pad || gi >= nx - pad || gj >= ny - pad;
    return label === 0 && beyond ? EDGE : label;
  };
  const distance = (i: number, j: number): number => Math.hypot((i + i0 + 0.5) * dx - px, (j + j0 + 0.5) * dy - py);

  // The sides: the air nearest the place, at most two different kinds of it.
  const nearest = new Map<number, number>();
  for (let within = w / 2 + 3 * rho; nearest.size === 0 && within <= reach; within += 2 * rho) {
    for (let j = 0; j < ch; j++) {
      for (let i = 0; i < cw; i++) {
        if (metal[j * cw + i]) continue;
        const d = distance(i, j);
        if (d > within) continue;
        const air = airAt(i, j);
        nearest.set(air, Math.min(d, nearest.get(air) ?? Infinity));
      }
    }
  }
  const kinds = [...nearest].sort((a, b) => a[1] - b[1]).map(([air]) => air);
  // One kind of air only: the same air on both sides (a bar's stub, a spur).
  const airs = kinds.length === 1 ? [kinds[0]!, kinds[0]!] : kinds.slice(0, 2);
  const movable = airs.filter((air) => air !== EDGE).length;
  if (movable === 0) return { sides: airs.map((air) => side(air, 0, Infinity, 0)), fits: false, borderline: false };
  const shift = missing / movable;
  const need = shift + half;
  const sides = airs.map((air) => {
    if (air === EDGE) return side(air, 0, Infinity, 0);
    let room = 0;
    const within = w / 2 + shift + half + beyond;
    for (let j = 0; j < ch; j++) {
      for (let i = 0; i < cw; i++) {
        const k = j * cw + i;
        if (metal[k] || airAt(i, j) !== air || distance(i, j) > within) continue;
        room = Math.max(room, Math.sqrt(toMetal[k]!) - rho / 2);
      }
    }
    return side(air, shift, room, need);
  });
  const fits = sides.every((s) => s.roomMm >= s.needMm - tolMm);
  const borderline = sides.some((s) => s.air !== EDGE && near(s.roomMm, s.needMm, tolMm));
  return { sides, fits, borderline };
}

const side = (air: number, shiftMm: number, roomMm: number, needMm: number): Side => ({ air, shiftMm, roomMm, needMm });
