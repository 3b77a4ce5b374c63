import type { PieceStyle } from './style.ts';

const hex = (v: number): string =>
  Math.round(Math.min(255, Math.max(0, v)))
    .toString(16)
    .padStart(2, '0');

const DEG = Math.PI / 180;

/**
 * The colour of the bent piece's surface along the picture's width, as gradient stops: with the
 * axis upright and an orthographic eye, a point's normal depends only on its azimuth, and so only
 * on its x on the picture (x = ρ sin θ). The lights are level, so only the normal's azimuth φ
 * matters: diffuse cos(φ − key), a specular band half-way between the key light and the eye and
 * another at the rim light. `face` is the near wall's outer face or the far wall's inner face,
 * whose normal points back towards the axis and so mirrors the outer one. Offsets run from 0 at
 * x = −ρ to 1 at x = +ρ.
 */
export function surfaceStops(face: 'outer' | 'inner', style: PieceStyle): [number, string][] {
  const look = style[face];
  const key = style.keyLightDeg * DEG;
  const lobe = (phi: number, towards: number) => Math.pow(Math.max(0, Math.cos(phi - towards)), look.shininess);
  const stops: [number, string][] = [];
  const n = style.shadeStops;
  for (let i = 0; i < n; i++) {
    const alpha = -Math.PI / 2 + (Math.PI * i) / (n - 1);
    const phi = face === 'outer' ? alpha : -alpha;
    const lit = look.ambient + look.diffuse * Math.max(0, Math.cos(phi - key));
    const shine = look.specular * lobe(phi, key / 2) + look.rim * lobe(phi, (style.rimLightDeg * DEG) / 2);
    const rgb = style.brassRgb.map((c, k) => c * lit + style.specularRgb[k]! * shine);
    stops.push([(Math.sin(alpha) + 1) / 2, `#${rgb.map(hex).join('')}`]);
  }
  return stops;
}

/** A horizontal gradient in the picture's pixels from x0 to x1 with `stops`. */
export function gradientElement(id: string, x0: number, x1: number, stops: readonly [number, string][]): string {
  const body = stops
    .map(([at, colour]) => `<stop offset="${Math.round(at * 10000) / 10000}" stop-color="${colour}"/>`)
    .join('');
  return `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${x0}" y1="0" x2="${x1}" y2="0">${body}</linearGradient>`;
}
