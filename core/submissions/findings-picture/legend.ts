import { badge, badgeWidth, ring } from './marks.ts';
import { markedPlaces, type NumberedFinding } from './numbering.ts';
import { fitText, textElement, textWidth } from './stroke-font.ts';
import { pictureStyle, type PictureStyle } from './style.ts';

/** A block of the picture below the drawing: its SVG (already placed) and the height it takes. */
export interface Panel {
  svg: string;
  height: number;
}

interface Item {
  width: number;
  /** The item's SVG with its top-left corner at (x, y). */
  draw(x: number, y: number): string;
}

/**
 * Items left to right, wrapping onto new lines, in columns of one width so numbers line up.
 * Returns the SVG and the height used from `top`.
 */
function flow(items: readonly Item[], top: number, width: number, style: PictureStyle): Panel {
  const inner = width - 2 * style.padPx;
  const widest = Math.max(0, ...items.map((i) => i.width));
  const column = Math.min(inner, Math.max(widest + style.padPx, style.legendColumnPx));
  const perLine = Math.max(1, Math.floor(inner / column));
  let svg = '';
  items.forEach((item, i) => {
    const x = style.padPx + (i % perLine) * column;
    const y = top + Math.floor(i / perLine) * style.lineHeightPx;
    svg += item.draw(x, y);
  });
  return { svg, height: Math.ceil(items.length / perLine) * style.lineHeightPx };
}

const placesText = (count: number): string =>
  count === 0 ? '(WHOLE DRAWING)' : count === 1 ? '(1 PLACE)' : `(${count} PLACES)`;

/** A line of text whose capitals sit in the middle of a legend line starting at y. */
const lineText = (text: string, x: number, y: number, style: PictureStyle, colour: string = style.inkColour): string =>
  textElement(text, x, y + (style.lineHeightPx - style.textCapPx) / 2, style.textCapPx, colour);

function keyItem(severity: 'error' | 'warning', words: string, style: PictureStyle): Item {
  const r = style.badgeHeightPx / 2 - 2;
  return {
    width: 2 * r + 10 + textWidth(words, style.textCapPx),
    draw: (x, y) => {
      const sample = ring(x + r + 2, y + style.lineHeightPx / 2, r, severity, style, 3);
      return sample.halo + sample.stroke + lineText(words, x + 2 * r + 12, y, style);
    },
  };
}

/**
 * The legend under the drawing: what the two colours mean, then each number with its code and
 * how many places it has (or that it concerns the whole drawing), in numbering order.
 */
export function legendPanel(
  numbered: readonly NumberedFinding[],
  top: number,
  width: number,
  notes: { unmarked: number },
  style: PictureStyle = pictureStyle,
): Panel {
  const inner = width - 2 * style.padPx;
  const keys = flow(
    [
      keyItem('error', 'ERROR: FIX IT IN THE DRAWING', style),
      keyItem('warning', 'WARNING: CHANGED BY THE ENGINE, OR A NOTE', style),
    ],
    top + style.padPx / 2,
    width,
    style,
  );
  let y = top + style.padPx / 2 + keys.height;
  let svg = keys.svg;

  if (numbered.length === 0) {
    svg += lineText('NO FINDINGS: NOTHING TO FIX, NOTHING CHANGED.', style.padPx, y, style, style.mutedColour);
    y += style.lineHeightPx;
  }
  const entries = numbered.map(({ no, finding }): Item => {
    const bw = badgeWidth(no, style);
    const words = `${finding.code} ${placesText(markedPlaces(finding).length)}`;
    const room = inner - bw - 10;
    const shown = fitText(words, style.textCapPx, room);
    return {
      width: bw + 10 + textWidth(shown, style.textCapPx),
      draw: (x, yy) =>
        badge(no, x + bw / 2, yy + style.lineHeightPx / 2, finding.severity, style) +
        lineText(shown, x + bw + 10, yy, style),
    };
  });
  const list = flow(entries, y, width, style);
  svg += list.svg;
  y += list.height;
  if (notes.unmarked > 0) {
    const words = fitText(`${notes.unmarked} MORE PLACES ARE NOT CIRCLED.`, style.textCapPx, inner);
    svg += lineText(words, style.padPx, y, style, style.mutedColour);
    y += style.lineHeightPx;
  }
  return { svg, height: y - top + style.padPx / 2 };
}
