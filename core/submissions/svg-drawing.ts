import { createHash } from 'node:crypto';
import type { JobRow } from '../../db/schema.ts';
import type { Config } from '../config.ts';
import { coreError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { RateLimitObserver } from '../limits/rate-report.ts';
import { err, ok, type Result } from '../result.ts';
import { rebuildSvg } from './svg/rebuild.ts';
import { renderFailed, renderTimedOut, tooManyBytes } from './svg/refusals.ts';
import type { SvgRenderer } from './svg/render-pool.ts';
import type { RenderedCache } from './svg/rendered-cache.ts';

/** Where a render is counted: the upload's submission buckets, before the render starts. */
interface RenderCounting {
  limiter: Pick<RateLimiter, 'submission'>;
  clientAddress: string;
  onRateLimit?: RateLimitObserver;
}

/** The rendered drawing, and whether the render was counted in the submission buckets. */
interface RenderedDrawing {
  png: Buffer;
  counted: boolean;
}

/**
 * A drawing sent as SVG text, as the PNG bytes to submit: checked with an XML parser against the
 * rules (`svg/rules.ts`) and the live limits (`config.svg`), then rendered on the job's
 * recommended canvas, black on white, flattened, 8-bit greyscale. Nothing the agent wrote decides
 * the canvas size. The same text always gives the same bytes, so resending it replays the stored
 * submission through `submitDesign`'s content idempotency.
 *
 * With `counting`, a render costs the caller a hit in the submission buckets, taken after the
 * cheap checks and before the render starts, so a client sending SVGs that fail to render is held
 * back as one sending PNGs is. A document rendered lately (`cache`) is neither rendered nor counted.
 */
export async function renderSvgDrawing(
  deps: { config: Config; log: Logger },
  renderer: SvgRenderer,
  cache: RenderedCache | undefined,
  job: JobRow,
  svgText: string,
  counting?: RenderCounting,
): Promise<Result<RenderedDrawing>> {
  const limits = deps.config.svg;
  const bytes = Buffer.byteLength(svgText, 'utf8');
  if (bytes > limits.maxBytes) return err(tooManyBytes(bytes, limits));
  // The canvas of every job's drawing hints (core/jobs/drawing-hints.ts): the live configuration's.
  const canvas = deps.config.image.recommendedPixels;
  const document = rebuildSvg(svgText, limits, canvas);
  if (!document.ok) return document;
  const key = createHash('sha256').update(`${canvas.width}x${canvas.height}\n${document.value}`).digest('hex');
  const kept = cache?.get(key);
  if (kept) return ok({ png: kept, counted: false });
  if (counting) {
    const limited = await counting.limiter.submission(counting.clientAddress, counting.onRateLimit);
    if (!limited.ok) return limited;
  }
  const started = performance.now();
  const outcome = await renderer.render(document.value, canvas, limits.renderTimeoutSec * 1000);
  const ms = Math.round(performance.now() - started);
  if (outcome.kind === 'png') {
    cache?.set(key, outcome.png);
    return ok({ png: outcome.png, counted: counting !== undefined });
  }
  deps.log.warn({ msg: 'svg drawing not rendered', jobId: job.id, outcome: outcome.kind, ms, bytes });
  if (outcome.kind === 'timeout') return err(renderTimedOut(limits));
  if (outcome.refused) return err(renderFailed());
  deps.log.warn({ msg: 'svg render process failed', jobId: job.id, reason: outcome.reason });
  return err(
    coreError('PROCESSING_FAILED', {
      message: 'The SVG drawing could not be rendered: the renderer failed.',
      agent_instruction:
        'Wait 30 seconds and send the same SVG once more. If it fails again, send the drawing as a PNG instead and stop looping.',
    }),
  );
}

/** `renderSvgDrawing` without counting or cache: the PNG alone. */
export async function drawingFromSvg(
  deps: { config: Config; log: Logger },
  renderer: SvgRenderer,
  job: JobRow,
  svgText: string,
): Promise<Result<Buffer>> {
  const rendered = await renderSvgDrawing(deps, renderer, undefined, job, svgText);
  return rendered.ok ? ok(rendered.value.png) : rendered;
}

/**
 * What an agent needs to know to draw in SVG, with the live limits: for a tool's description or a
 * drawing-rules text (docs/decisions.md, "SVG drawings", says the same at length).
 */
export function svgDrawingRules(config: Config): string[] {
  const { width, height } = config.image.recommendedPixels;
  const svg = config.svg;
  return [
    `The SVG is rendered on the ${width}x${height} canvas whatever its own size says: its viewBox is scaled to fit (uniformly and centred, unless its preserveAspectRatio says otherwise). Draw with viewBox="0 0 ${width} ${height}" and the strip at job.drawing.stripPx, so the pixel places in the findings are your own coordinates.`,
    'Black fill on white; edges are rendered crisp (no anti-aliasing) unless you set shape-rendering.',
    'Use only svg, g, defs, symbol, use, title, desc, metadata, style, path, rect, circle, ellipse, line, polyline, polygon, linearGradient, radialGradient, stop and pattern; href and url() only as "#id" in the same document.',
    'Refused: DOCTYPE and entities, scripts and on... attributes, images, foreignObject, text (draw letters as paths), filter, mask, clipPath, marker, links to anything outside the document, data: URIs, CSS @ rules and backslash escapes.',
    `At most ${svg.maxBytes.toLocaleString('en')} bytes and ${svg.maxElements.toLocaleString('en')} elements (each use counts as a copy of what it points to), ${svg.maxDepth} levels of nesting, and ${svg.renderTimeoutSec} seconds to render.`,
  ];
}
