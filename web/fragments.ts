import type { ProductType, Price, Geometry, WornSize } from '../core/index.ts';
import { formatGrams, formatMm, formatNumber, formatPrice } from './format.ts';
import { escapeHtml } from './html.ts';
import { sizeWords } from './size-text.ts';
import { piecePicturesSection, type PiecePictures } from './piece-pictures.ts';
import { he } from './strings.ts';

/** What the approval page and the design page both show about a piece. */
interface PieceFacts {
  productType: ProductType;
  geometry: Geometry;
  price: Price;
  /** The piece's pictures (`flat.png`, `worn.png`) where the page serves them. */
  pictures: PiecePictures;
  thicknessMm: number;
  submissionNo?: number;
  /** The size in a person's terms. */
  worn: WornSize;
}

/** `172.3 × 20 מ״מ`: length by width, as the strip is cut. */
export const dimensionsText = (geometry: Geometry): string =>
  he.facts.dimensionsValue(formatNumber(geometry.lengthMm), formatNumber(geometry.widthMm), he.units.mm);

const row = (term: string, value: string, className?: string): string => {
  const cls = className ? ` class="${className}"` : '';
  return `<dt${cls}>${escapeHtml(term)}</dt><dd${cls}>${escapeHtml(value)}</dd>`;
};

function factsSection(facts: PieceFacts): string {
  const words = sizeWords(facts.worn);
  const rows = [
    row(he.facts.product, he.products[facts.productType]),
    row(he.facts.dimensions, dimensionsText(facts.geometry)),
    row(he.facts.thickness, formatMm(facts.thicknessMm)),
    row(he.facts.material, he.material),
    row(he.facts.weight, formatGrams(facts.geometry.estWeightGrams)),
  ];
  if (facts.submissionNo !== undefined) {
    rows.push(row(he.facts.version, he.facts.versionNo(String(facts.submissionNo))));
  }
  return `<section class="card" aria-labelledby="facts-heading">
<h2 id="facts-heading">${escapeHtml(he.facts.heading)}</h2>
<p class="size-line">${escapeHtml(words.size)}.</p>
<p class="hint">${escapeHtml(words.form)}.</p>
<dl class="facts">${rows.join('')}</dl>
</section>`;
}

function priceSection(price: Price): string {
  const money = (amount: number) => formatPrice(amount, price.currency);
  return `<section class="card" aria-labelledby="price-heading">
<h2 id="price-heading">${escapeHtml(he.price.heading)}</h2>
<dl class="facts">${row(he.price.base, money(price.base))}${row(he.price.shipping, money(price.shipping))}${row(he.price.total, money(price.total), 'total')}</dl>
${price.vatIncluded ? `<p class="hint">${escapeHtml(he.price.vatIncluded)}</p>` : ''}
<p class="hint">${escapeHtml(he.price.checkoutNote)}</p>
</section>`;
}

/** The pictures on top (then `afterPreview`, already escaped), then the facts and the price side by side on a wide screen. */
export const pieceSections = (facts: PieceFacts, afterPreview = ''): string =>
  `${piecePicturesSection(facts)}
${afterPreview}<div class="grid">
${factsSection(facts)}
${priceSection(facts.price)}
</div>`;
