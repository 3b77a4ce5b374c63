/**
 * What a disc reaches, on rows packed 32 pixels to a word. A disc is a stack of horizontal
 * segments, so erosion is, per row, the AND over the disc's rows of the neighbouring rows each
 * eroded along x by that row's half-width, and dilation the same with OR; every step handles 32
 * pixels at once. For the small depths of the pipeline's floors over mostly-metal rasters this
 * beats sweeping pixel by pixel several times over, with the same integer comparisons.
 */
import { takeMask } from './mask-pool.ts';
import { onesOf } from './runs.ts';

/** Depths up to this keep the per-word work (one AND or OR per disc row) small. */
export const MAX_BITS_DEPTH = 16;

/**
 * `discReach` for an integer depth in 1..MAX_BITS_DEPTH: the pixels of `mask` within
 * (depth - 0.5) of a core pixel, the core being the pixels at least `depth` from every pixel
 * outside the mask (and from the outside of the raster when `outsideIsComplement`).
 */
export function discReachBits(
  mask: Uint8Array,
  w: number,
  h: number,
  depth: number,
  outsideIsComplement: boolean,
  /** When given (w × h, zeroed), receives the pixels outside the core (the features grown by depth) as 0/1 bytes. */
  beyondCoreOut?: Uint8Array,
): Uint8Array {
  const words = (w + 31) >>> 5;
  // Beyond the raster: metal-like (all ones) unless the outside counts as a feature.
  const outside = outsideIsComplement ? 0 : -1;
  const packed = pack(mask, w, h, words, outside);
  // Erosion: no feature at a squared distance below depth^2.
  const core = new Int32Array(words * h);
  combineRows(packed, words, h, depth - 1, widest(depth * depth - 1), outside, true, core);
  // Bits past w are no pixels: none may be core.
  const tail = w & 31;
  let any = 0;
  for (let y = 0; y < h; y++) {
    if (tail) core[(y + 1) * words - 1]! &= ~(-1 << tail);
    for (let j = y * words; j < (y + 1) * words; j++) any |= core[j]!;
  }
  if (beyondCoreOut) unpackNot(core, w, h, words, beyondCoreOut);
  const reached = takeMask(w * h);
  if (!any) return reached;
  // Dilation: a core pixel within a squared distance of depth^2 - depth (= (depth - 0.5)^2 rounded down).
  const covered = new Int32Array(words * h);
  combineRows(core, words, h, depth - 1, widest(depth * depth - depth), 0, false, covered);
  unpackAnd(covered, mask, w, h, words, reached);
  return reached;
}

/** The disc row's half-width at dy: the largest dx with dx^2 + dy^2 <= limit (integers). */
const widest =
  (limit: number) =>
  (dy: number): number => {
    let dx = 0;
    while ((dx + 1) * (dx + 1) + dy * dy <= limit) dx++;
    return dx;
  };

/**
 * out[y] = AND (or OR) over |dy| <= span of the row y + dy spread along x by `reach(|dy|)`
 * (rows beyond the raster are all `outside`).
 */
function combineRows(
  src: Int32Array,
  words: number,
  h: number,
  span: number,
  reach: (dy: number) => number,
  outside: number,
  and: boolean,
  out: Int32Array,
): void {
  const reachOf = Array.from({ length: span + 1 }, (_, dy) => reach(dy));
  const widths = [...new Set(reachOf)].sort((a, b) => a - b);
  // Each row spread once per distinct half-width, kept for the 2 * span + 1 rows that use it.
  const spread = widths.map(() => new Int32Array(words * h));
  const spreadOf = reachOf.map((k) => spread[widths.indexOf(k)]!);
  const acc = new Int32Array(words);
  for (let y = 0; y < h; y++) {
    const base = y * words;
    for (let j = 0; j < words; j++) acc[j] = src[base + j]!;
    let k = 0;
    for (let t = 0; t < widths.length; t++) {
      // Half-widths are below 32: each step reads a word and its two neighbours.
      for (; k < widths[t]!;) {
        k++;
        if (and) spreadStep(src, base, words, k, outside, acc, true);
        else spreadStep(src, base, words, k, outside, acc, false);
      }
      spread[t]!.set(acc, base);
    }
  }
  const fill = and ? -1 : 0;
  for (let y = 0; y < h; y++) {
    const base = y * words;
    out.fill(fill, base, base + words);
    for (let dy = -span; dy <= span; dy++) {
      const from = y + dy;
      if (from < 0 || from >= h) {
        if (and && outside === 0) out.fill(0, base, base + words);
        continue;
      }
      const rows = spreadOf[dy < 0 ? -dy : dy]!;
      const at = from * words;
      if (and) for (let j = 0; j < words; j++) out[base + j] = out[base + j]! & rows[at + j]!;
      else for (let j = 0; j < words; j++) out[base + j] = out[base + j]! | rows[at + j]!;
    }
  }
}

/**
 * acc &= (or |=) the row shifted k pixels either way. Two call sites with constant `and`, so each
 * inlined copy keeps one branch: a loop that met both would be deoptimised on the first change.
 */
function spreadStep(
  src: Int32Array,
  base: number,
  words: number,
  k: number,
  outside: number,
  acc: Int32Array,
  and: boolean,
): void {
  const last = words - 1;
  for (let j = 0; j < words; j++) {
    const cur = src[base + j]!;
    const next = j < last ? src[base + j + 1]! : outside;
    const prev = j > 0 ? src[base + j - 1]! : outside;
    const both = ((cur >>> k) | (next << (32 - k))) & ((cur << k) | (prev >>> (32 - k)));
    const either = (cur >>> k) | (next << (32 - k)) | ((cur << k) | (prev >>> (32 - k)));
    acc[j] = and ? acc[j]! & both : acc[j]! | either;
  }
}

/** The four 0/1 bytes of `onesOf` as four bits, first byte lowest. */
const packFlags = (x: number): number => (x & 1) | ((x >>> 7) & 2) | ((x >>> 14) & 4) | ((x >>> 21) & 8);
/** Four bits back to four bytes of 0 or 1, first bit in the first byte. */
const BYTES_OF_NIBBLE = Uint32Array.from({ length: 16 }, (_, b) => {
  let v = 0;
  for (let i = 0; i < 4; i++) if (b & (1 << i)) v |= 1 << (8 * i);
  return v >>> 0;
});

/** Whether rows of the mask can be read four bytes at a time (every row starts on a word). */
const wordRows = (mask: Uint8Array, w: number): boolean => w % 4 === 0 && mask.byteOffset % 4 === 0;

/** Rows of bits; the bits past w in each row's last word read as `outside`. */
function pack(mask: Uint8Array, w: number, h: number, words: number, outside: number): Int32Array {
  const out = new Int32Array(words * h);
  const tail = w & 31;
  const quads = wordRows(mask, w) ? new Uint32Array(mask.buffer, mask.byteOffset, (w * h) >>> 2) : undefined;
  for (let y = 0; y < h; y++) {
    const src = y * w;
    const dst = y * words;
    if (quads) {
      const q0 = src >>> 2;
      for (let q = 0; q < w >>> 2; q++) {
        const bits = packFlags(onesOf(quads[q0 + q]!));
        if (bits) out[dst + (q >>> 3)]! |= bits << ((q & 7) * 4);
      }
    } else {
      for (let x = 0; x < w; x++) if (mask[src + x]) out[dst + (x >>> 5)]! |= 1 << (x & 31);
    }
    if (tail && outside) out[dst + words - 1]! |= -1 << tail;
  }
  return out;
}

/** out = NOT bits, as 0/1 bytes. */
function unpackNot(bits: Int32Array, w: number, h: number, words: number, out: Uint8Array): void {
  const outQuads = wordRows(out, w) ? new Uint32Array(out.buffer, out.byteOffset, (w * h) >>> 2) : undefined;
  for (let y = 0; y < h; y++) {
    const src = y * words;
    const dst = y * w;
    if (outQuads) {
      const q0 = dst >>> 2;
      for (let q = 0; q < w >>> 2; q++) {
        const nibble = (~bits[src + (q >>> 3)]! >>> ((q & 7) * 4)) & 15;
        if (nibble) outQuads[q0 + q] = BYTES_OF_NIBBLE[nibble]!;
      }
    } else {
      for (let x = 0; x < w; x++) if (!((bits[src + (x >>> 5)]! >>> (x & 31)) & 1)) out[dst + x] = 1;
    }
  }
}

/** out = mask AND bits, as 0/1 bytes. */
function unpackAnd(bits: Int32Array, mask: Uint8Array, w: number, h: number, words: number, out: Uint8Array): void {
  const fast = wordRows(mask, w);
  const quads = fast ? new Uint32Array(mask.buffer, mask.byteOffset, (w * h) >>> 2) : undefined;
  const outQuads = fast ? new Uint32Array(out.buffer, out.byteOffset, (w * h) >>> 2) : undefined;
  for (let y = 0; y < h; y++) {
    const src = y * words;
    const dst = y * w;
    if (quads && outQuads) {
      const q0 = dst >>> 2;
      for (let q = 0; q < w >>> 2; q++) {
        const nibble = (bits[src + (q >>> 3)]! >>> ((q & 7) * 4)) & 15;
        if (nibble) outQuads[q0 + q] = BYTES_OF_NIBBLE[nibble]! & onesOf(quads[q0 + q]!);
      }
    } else {
      for (let x = 0; x < w; x++) {
        if (mask[dst + x] && (bits[src + (x >>> 5)]! >>> (x & 31)) & 1) out[dst + x] = 1;
      }
    }
  }
}
