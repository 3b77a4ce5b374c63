import type { WornSize } from '../core/index.ts';
import { formatNumber } from './format.ts';
import { he } from './strings.ts';

/** The piece's size and form in a person's terms: the wrist or ring size, and how it closes. */
interface SizeWords {
  size: string;
  form: string;
}

export function sizeWords(size: WornSize): SizeWords {
  if (size.product === 'bracelet') {
    return {
      size: he.size.wrist(formatNumber(size.wristMm), he.size.fit[size.fit]),
      form: he.size.cuff(formatNumber(size.gapMm)),
    };
  }
  const diameter = formatNumber(size.innerDiameterMm);
  let text: string;
  if (size.usRingSize === undefined) text = he.size.ringDiameter(diameter);
  else if (size.fromLength) text = he.size.ringAbout(formatNumber(size.usRingSize), diameter);
  else text = he.size.ring(formatNumber(size.usRingSize), diameter);
  return { size: text, form: he.size.closedRing };
}
