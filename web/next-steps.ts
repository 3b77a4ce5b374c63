import type { Price } from '../core/index.ts';
import { formatPrice } from './format.ts';
import { escapeHtml } from './html.ts';
import { he } from './strings.ts';

/** After approving: what happens next (order and payment at checkout, at the job's fixed price). */
export const nextStepsSection = (price: Price): string =>
  `<section class="card next" aria-labelledby="next-heading">
<h2 id="next-heading">${escapeHtml(he.nextSteps.heading)}</h2>
<p>${escapeHtml(he.nextSteps.order(formatPrice(price.total, price.currency)))}</p>
<p>${escapeHtml(he.nextSteps.making)}</p>
<p class="hint">${escapeHtml(he.nextSteps.keep)}</p>
</section>`;
