/**
 * How the piece pictures look: colours and light. These are presentation choices, not numbers an
 * agent reads; the pictures' sizes and the viewing angle come from `config.pictures`.
 */
export const pieceStyle = {
  /** The picture's ground: the warm paper the page frames it on (`.piece-frame` in web/styles.ts). */
  background: '#f3efe8',
  /** Ruler, ticks and numbers: 15:1 on the background. */
  ink: '#1d1d1f',

  /** Polished brass lying flat, lit from the upper left: a broad sheen across the strip. */
  flatStops: [
    [0, '#a8782c'],
    [0.22, '#c99a45'],
    [0.4, '#ecc977'],
    [0.5, '#f6dc98'],
    [0.62, '#d6aa55'],
    [0.82, '#b5863a'],
    [1, '#9a6c27'],
  ] as const,
  /** The laser-cut walls of every contour, a thin line round the metal. */
  flatEdge: '#7d5820',
  flatEdgePx: 1.6,
  /** Under the blank, offset down and right and blurred: it lies on the paper. */
  flatShadow: { colour: '#4a3418', opacity: 0.36, offsetPx: 9, layers: 5 },

  /**
   * The bent piece, lit as in a studio: a key light at the left front and a rim light at the right,
   * both level, so each shows on the cylinder as an upright highlight band (azimuths in degrees,
   * 0 towards the eye, positive to the right). Brass albedo times ambient plus diffuse, plus a
   * warm specular; the inside of the far wall is the same metal in the piece's own shade.
   */
  brassRgb: [214, 166, 80] as const,
  specularRgb: [255, 206, 124] as const,
  keyLightDeg: -42,
  rimLightDeg: 64,
  outer: { ambient: 0.34, diffuse: 0.56, specular: 0.42, rim: 0.22, shininess: 18 },
  inner: { ambient: 0.34, diffuse: 0.42, specular: 0.3, rim: 0.15, shininess: 10 },
  /** The cut faces (rims and opening walls) seen past the surfaces: duller than the polished faces. */
  frontWall: '#8e6a2c',
  backWall: '#6a4c1c',
  /** A soft contact shadow on the ground under the piece. */
  groundShadow: { colour: '#3b2a14', opacity: 0.3, spread: 1.18 },
  /** Gradient stops across each surface: enough that the light reads smooth. */
  shadeStops: 33,
  /** Longest arc one straight piece of an outline may span on the bent piece. */
  maxArcDeg: 2,
} as const;

export type PieceStyle = typeof pieceStyle;
