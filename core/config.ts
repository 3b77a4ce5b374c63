import { readFileSync } from 'node:fs';
import { z } from 'zod';

const range = z.strictObject({ min: z.number(), max: z.number() }).refine((r) => r.min <= r.max, {
  message: 'min must not exceed max',
});
const positive = z.number().positive();
const count = z.number().int().nonnegative();

const productSchema = z.strictObject({
  lengthRangeMm: range,
  widthRangeMm: range,
  defaultWidthMm: positive,
  gapMm: z.number().nonnegative(),
  price: z.strictObject({ base: z.number().nonnegative(), shipping: z.number().nonnegative() }),
});

/** The whole service configuration: capabilities and every validator read this one object. */
export const configSchema = z.strictObject({
  manufacturing: z.strictObject({
    material: z.string(),
    thicknessMm: positive,
    minOpeningMm: positive,
    minMetalMm: positive,
    despeckleAreaFraction: z.number().nonnegative(),
    densityGramsPerCm3: positive,
    note: z.string(),
  }),
  limits: z.strictObject({
    submissionsPerJob: count,
    jobsPerHourPerIp: count,
    globalJobsPerDay: count,
    submissionsPerHourPerIp: count,
    globalSubmissionsPerMinute: count,
    globalSubmissionsPerDay: count,
    adoptsPerHourPerAccount: count,
    jobTtlDays: positive,
    declinedTtlHours: positive,
    syncTimeoutSec: positive,
    pollIntervalSec: positive,
    tracerTimeoutSec: positive,
    processingInterruptedAfterSec: positive,
  }),
  image: z.strictObject({
    maxBytes: z.number().int().positive(),
    minShortSidePx: z.number().int().positive(),
    maxLongSidePx: z.number().int().positive(),
    maxPixels: z.number().int().positive(),
    cropAspect: range,
    /**
     * How far a drawing's ratio may be from the job's: within `keepWithin` (a share) the drawing's
     * width is kept; up to `maxStretch` times (or 1/maxStretch) it is stretched along the length
     * with a warning; beyond, refused. Messages quote these numbers.
     */
    proportion: z.strictObject({ keepWithin: z.number().positive().lt(1), maxStretch: z.number().gt(1) }),
    recommendedPixels: z.strictObject({ width: z.number().int().positive(), height: z.number().int().positive() }),
    canvasMarginPx: z.number().int().nonnegative(),
    rules: z.array(z.string()),
  }),
  /**
   * Drawings sent as SVG text (`core.drawingFromSvg`): checked with an XML parser, then rendered
   * on the job's canvas in a child process. Messages quote these numbers.
   */
  svg: z.strictObject({
    maxBytes: z.number().int().positive(),
    /** Elements, each `<use>` or `url(#…)` reference counted as a copy of what it points to. */
    maxElements: z.number().int().positive(),
    /** libxml2 (inside librsvg) refuses documents deeper than 256 levels. */
    maxDepth: z.number().int().positive().max(250),
    renderTimeoutSec: positive,
    concurrentRenders: z.number().int().positive(),
  }),
  products: z.strictObject({ bracelet: productSchema, ring: productSchema }),
  sizing: z.strictObject({
    bracelet: z.strictObject({
      wristMm: range,
      easeMm: z.strictObject({ snug: z.number(), comfort: z.number(), loose: z.number() }),
      defaultFit: z.enum(['snug', 'comfort', 'loose']),
    }),
    ring: z.strictObject({
      usRingSize: z.strictObject({ min: z.number(), max: z.number(), step: positive }),
      innerDiameterMm: z.strictObject({ atSizeZero: z.number(), perSize: z.number() }),
    }),
    lengthRoundingMm: positive,
  }),
  pricing: z.strictObject({ currency: z.string(), vatIncluded: z.boolean(), note: z.string() }),
  approvalPage: z.strictObject({ language: z.literal('he'), note: z.string() }),
  /** The people's site; not part of the agent contract, so not published in capabilities. */
  site: z.strictObject({
    signInPerHourPerAddress: count,
    signInFailuresPerHourPerAddressAndEmail: count,
    signInFailuresPerHourPerEmail: count,
    sessionTtlDays: positive,
    minPasswordLength: z.number().int().min(8),
    /**
     * The longest text a person may give with a decline, in characters. At most 1000, so that a
     * form of that many four-byte characters, percent-encoded, stays inside the forms' 16 KiB limit.
     */
    declineReasonMaxChars: z.number().int().min(1).max(1000),
  }),
  /**
   * The pictures of the piece on the people's pages (`/a/{token}/flat.png`, `/worn.png`, and the
   * same under `/designs/{id}`): drawn from the stored cutting SVG on request, kept in a small
   * cache. Not part of the agent contract.
   */
  pictures: z.strictObject({
    /** The flat blank with its millimetre ruler and width mark. */
    flat: z.strictObject({
      maxWidthPx: z.number().int().min(400).max(4000),
      maxHeightPx: z.number().int().min(300).max(4000),
      marginPx: z.number().int().nonnegative(),
      /** Height of the ruler's digits: readable when a phone shrinks the picture to its column. */
      labelCapPx: z.number().int().min(8).max(200),
    }),
    /** The piece bent round as worn (the cuff with its gap, the ring closed), seen from above at an angle. */
    worn: z.strictObject({
      maxWidthPx: z.number().int().min(300).max(4000),
      maxHeightPx: z.number().int().min(300).max(4000),
      marginPx: z.number().int().nonnegative(),
      /** How far above the piece's middle plane the eye is: 0 side on, 90 straight down the axis. */
      elevationDeg: z.number().min(10).max(70),
      /** Where the cuff's gap faces: 180 straight away from the eye (seen over the near rim), 90 to the right. */
      gapAzimuthDeg: z.number().min(0).max(360),
    }),
    /** Rendered pictures kept in memory, least recently used dropped first; 0 keeps none. */
    cacheBytes: count,
    /** Pictures drawn at once; more requests wait their turn (each draw uses one of sharp's threads). */
    concurrentRenders: z.number().int().positive(),
  }),
  /** Streamable HTTP MCP sessions (held in the process); not part of the agent contract. */
  mcp: z.strictObject({
    maxSessions: z.number().int().positive(),
    sessionsPerAddress: z.number().int().positive(),
    sessionsPerHourPerAddress: count,
    idleMinutes: positive,
    /** Origins besides SITE_URL's that may call `/mcp` from a browser (e.g. a hosted inspector). */
    allowedOrigins: z.array(z.url()),
  }),
});

export type Config = z.infer<typeof configSchema>;
export type ProductType = keyof Config['products'];
export const productTypes = ['bracelet', 'ring'] as const satisfies readonly ProductType[];

/**
 * Openings smaller than this are specks, filled before anything else: a share of the job's blank.
 * One product everywhere (the gate, job.drawing, submission.engine), so they always agree.
 */
export const despeckleAreaMm2 = (manufacturing: Config['manufacturing'], lengthMm: number, widthMm: number): number =>
  manufacturing.despeckleAreaFraction * lengthMm * widthMm;

export const defaultConfig: Config = {
  manufacturing: {
    material: 'brass',
    thicknessMm: 1.5,
    minOpeningMm: 0.2,
    minMetalMm: 0.6,
    despeckleAreaFraction: 0.0004,
    densityGramsPerCm3: 8.5,
    note: 'Laser-cut from flat brass sheet, then bent. Openings narrower than minOpeningMm cannot be cut; metal narrower than minMetalMm breaks.',
  },
  limits: {
    submissionsPerJob: 10,
    jobsPerHourPerIp: 30,
    globalJobsPerDay: 200,
    submissionsPerHourPerIp: 60,
    globalSubmissionsPerMinute: 12,
    globalSubmissionsPerDay: 600,
    adoptsPerHourPerAccount: 20,
    jobTtlDays: 7,
    declinedTtlHours: 24,
    syncTimeoutSec: 120,
    pollIntervalSec: 30,
    tracerTimeoutSec: 90,
    processingInterruptedAfterSec: 180,
  },
  image: {
    maxBytes: 6_000_000,
    minShortSidePx: 256,
    maxLongSidePx: 8192,
    maxPixels: 24_000_000,
    cropAspect: { min: 0.439, max: 46.15 },
    proportion: { keepWithin: 0.05, maxStretch: 1.5 },
    recommendedPixels: { width: 1536, height: 1024 },
    canvasMarginPx: 64,
    rules: [
      'Draw flat black on a pure white background: black is brass, white is air. No grey, no anti-aliasing, no shading, no alpha.',
      'The black design must be one connected piece; loose parts outside it are dropped.',
      'White shapes inside the black are cut out; keep every opening at least minOpeningPx wide.',
      'Keep every black line and bar at least minMetalPx wide.',
      'Do not draw black shapes inside openings: they would fall out when cut.',
      'Draw the strip at job.drawing.ratio (length / width), landscape, inside job.drawing.stripPx, with a white margin on every side.',
      'No text you want to read as letters, no photographs, no gradients.',
    ],
  },
  svg: {
    maxBytes: 1_000_000,
    maxElements: 20_000,
    maxDepth: 64,
    renderTimeoutSec: 10,
    concurrentRenders: 2,
  },
  products: {
    bracelet: {
      lengthRangeMm: { min: 70, max: 280 },
      widthRangeMm: { min: 5, max: 80 },
      defaultWidthMm: 20,
      gapMm: 25,
      price: { base: 320, shipping: 30 },
    },
    ring: {
      lengthRangeMm: { min: 40, max: 90 },
      widthRangeMm: { min: 2, max: 20 },
      defaultWidthMm: 6,
      gapMm: 0,
      price: { base: 220, shipping: 30 },
    },
  },
  sizing: {
    bracelet: { wristMm: { min: 110, max: 230 }, easeMm: { snug: 10, comfort: 15, loose: 20 }, defaultFit: 'comfort' },
    ring: { usRingSize: { min: 3, max: 16, step: 0.5 }, innerDiameterMm: { atSizeZero: 11.63, perSize: 0.8128 } },
    lengthRoundingMm: 0.1,
  },
  pricing: {
    currency: 'ILS',
    vatIncluded: true,
    note: 'Fixed price per product, VAT included. Referral codes and pickup are applied by the person at checkout.',
  },
  approvalPage: {
    language: 'he',
    note: 'The approval page is in Hebrew (right-to-left). Tell the person so when you give them the link.',
  },
  site: {
    signInPerHourPerAddress: 30,
    signInFailuresPerHourPerAddressAndEmail: 5,
    signInFailuresPerHourPerEmail: 10,
    sessionTtlDays: 30,
    minPasswordLength: 8,
    declineReasonMaxChars: 500,
  },
  pictures: {
    flat: { maxWidthPx: 2000, maxHeightPx: 1400, marginPx: 40, labelCapPx: 56 },
    worn: { maxWidthPx: 1600, maxHeightPx: 1600, marginPx: 40, elevationDeg: 30, gapAzimuthDeg: 180 },
    cacheBytes: 24_000_000,
    concurrentRenders: 2,
  },
  mcp: {
    maxSessions: 1000,
    sessionsPerAddress: 20,
    sessionsPerHourPerAddress: 120,
    idleMinutes: 20,
    allowedOrigins: [],
  },
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Objects merge key by key; anything else (arrays included) replaces the default. */
function deepMerge(base: Json, override: Json): Json {
  if (!isPlainObject(base) || !isPlainObject(override)) return override;
  const merged: { [key: string]: Json } = { ...base };
  for (const [key, value] of Object.entries(override)) {
    merged[key] = key in base ? deepMerge(base[key] as Json, value) : value;
  }
  return merged;
}

const isPlainObject = (value: unknown): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class ConfigError extends Error {}

/** Parses built-in defaults merged with an override object; throws ConfigError naming the bad paths. */
export function buildConfig(override: unknown = {}): Config {
  const parsed = configSchema.safeParse(deepMerge(defaultConfig as unknown as Json, override as Json));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** Reads CONFIG_FILE (if given) over the defaults. */
export function loadConfig(configFile?: string): Config {
  if (!configFile) return buildConfig();
  let override: unknown;
  try {
    override = JSON.parse(readFileSync(configFile, 'utf8'));
  } catch (cause) {
    throw new ConfigError(`CONFIG_FILE ${configFile} could not be read as JSON: ${(cause as Error).message}`);
  }
  return buildConfig(override);
}
