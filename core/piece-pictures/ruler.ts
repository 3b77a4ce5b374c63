import { labelElement, labelWidth } from './numerals.ts';
import { mmText, rulerCaps, type FlatLayout } from './layout.ts';

/** Steps the ruler may number, in millimetres: the smallest whose numbers do not crowd is used. */
const NUMBER_STEPS = [10, 20, 25, 50, 100];
/** Millimetre ticks closer than this many pixels would merge into a grey band: only every 5 mm is drawn. */
const MIN_TICK_GAP_PX = 4;

const fixed = (v: number): string => String(Math.round(v * 100) / 100);

/** The step between numbered ticks for a strip of `lengthMm` drawn at `pxPerMm`. */
function numberStep(lengthMm: number, pxPerMm: number, capPx: number): number {
  const widest = labelWidth(String(Math.floor(lengthMm)), capPx);
  return NUMBER_STEPS.find((step) => step * pxPerMm >= widest + capPx * 0.9) ?? NUMBER_STEPS.at(-1)!;
}

/**
 * A millimetre ruler along the strip's length, its zero under the strip's left end and its
 * baseline exactly as long as the strip: a tick every millimetre (every 5 mm when millimetres
 * would crowd), longer ones every 5 and 10, numbers every `numberStep`, the last tick at the
 * strip's end, and the unit after it.
 */
export function rulerSvg(lengthMm: number, layout: FlatLayout, ink: string): string {
  const { pxPerMm: s, left, rulerY: y, capPx: cap } = layout;
  const step = numberStep(lengthMm, s, cap);
  const long = cap * rulerCaps.longTick;
  const fine = s >= MIN_TICK_GAP_PX;
  const thin = fixed(Math.max(1.2, cap / 30));
  const thick = fixed(Math.max(2, cap / 18));
  let minor = '';
  let major = '';
  const labels: string[] = [];
  for (let mm = 0; mm <= lengthMm + 1e-9; mm++) {
    const x = left + mm * s;
    const numbered = mm % step === 0;
    if (mm % 10 === 0 || numbered) {
      major += `M${fixed(x)} ${fixed(y)}v${fixed(long)}`;
      if (numbered) labels.push(labelElement(String(mm), x, y + long + cap * rulerCaps.labelGap, cap, ink, 'middle'));
    } else if (mm % 5 === 0) {
      minor += `M${fixed(x)} ${fixed(y)}v${fixed(long * 0.62)}`;
    } else if (fine) {
      minor += `M${fixed(x)} ${fixed(y)}v${fixed(long * 0.36)}`;
    }
  }
  const end = left + lengthMm * s;
  major += `M${fixed(left)} ${fixed(y)}H${fixed(end)}M${fixed(end)} ${fixed(y)}v${fixed(long)}`;
  const unit = labelElement(
    'mm',
    end + cap * 0.6 + labelWidth('000', cap) / 2,
    y + long + cap * rulerCaps.labelGap,
    cap,
    ink,
  );
  return (
    `<path d="${minor}" stroke="${ink}" stroke-width="${thin}" fill="none"/>` +
    `<path d="${major}" stroke="${ink}" stroke-width="${thick}" fill="none" stroke-linecap="square"/>` +
    labels.join('') +
    unit
  );
}

/** The strip's width beside its right end: a bracket as tall as the strip and the width in millimetres. */
export function widthMarkSvg(widthMm: number, layout: FlatLayout, ink: string): string {
  const { pxPerMm: s, top, capPx: cap, widthMark } = layout;
  const x = widthMark.x;
  const bottom = top + widthMm * s;
  const arm = cap * 0.35;
  const stroke = fixed(Math.max(2, cap / 18));
  const bracket =
    `<path d="M${fixed(x)} ${fixed(top)}h${fixed(arm)}M${fixed(x + arm)} ${fixed(top)}V${fixed(bottom)}` +
    `M${fixed(x)} ${fixed(bottom)}h${fixed(arm)}" stroke="${ink}" stroke-width="${stroke}" fill="none"/>`;
  const middle = (top + bottom) / 2;
  const at = x + arm + cap * 0.4;
  const label = widthMark.rotated
    ? labelElement(mmText(widthMm), at, middle, cap, ink, 'middle', -90)
    : labelElement(mmText(widthMm), at, middle - cap / 2, cap, ink);
  return bracket + label;
}
