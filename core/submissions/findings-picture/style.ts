/**
 * How the findings picture looks. These are presentation choices, not manufacturing numbers: the
 * picture's size limits come from the live configuration (`image.recommendedPixels`,
 * `image.maxPixels`) and the change insets' window from `manufacturing.minMetalMm`.
 */
export const pictureStyle = {
  /**
   * Okabe-Ito vermillion and blue: told apart with every common colour-vision deficiency. Errors
   * are also solid rings and warnings dashed ones, so the kind reads without colour too.
   */
  errorColour: '#d55e00',
  warningColour: '#0072b2',
  /** Under every ring and badge, so they read on black metal and white air alike. */
  haloColour: '#ffffff',
  inkColour: '#1d1d1f',
  mutedColour: '#5f5f5f',
  frameColour: '#b8b2a7',
  ruleColour: '#d9d3c8',

  ringStrokePx: 4,
  haloStrokePx: 9,
  /** A ring never smaller than this, so a one-pixel defect still gets a visible circle. */
  minRingPx: 14,
  /** Space between the defect's own radius and the ring. */
  ringGapPx: 5,
  warningDash: '11 6',

  badgeCapPx: 12,
  badgeHeightPx: 22,
  textCapPx: 14,
  lineHeightPx: 28,
  padPx: 16,
  /** Narrowest picture: a small upload is centred on a canvas wide enough for the legend. */
  minWidthPx: 480,
  /** Legend entries are laid out in columns this wide where the picture is wider. */
  legendColumnPx: 420,

  /** Each side of a before/after inset. */
  insetPx: 200,
  insetGapPx: 44,
  /**
   * The most insets drawn, in all and per finding (a repair's places tend to look alike); the
   * panel says how many more changed places there are.
   */
  maxInsets: 9,
  maxInsetsPerFinding: 3,
  /** An inset shows this many times the place's own radius, and never less than `windowMinMetal` floors. */
  windowRadii: 4,
  windowMinMetal: 10,

  /** The most places circled; the legend says when more were left unmarked (a bound on render time). */
  maxMarks: 1000,
} as const;

export type PictureStyle = typeof pictureStyle;

export const severityColour = (severity: 'error' | 'warning', style: PictureStyle = pictureStyle): string =>
  severity === 'error' ? style.errorColour : style.warningColour;
