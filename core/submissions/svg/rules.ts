import type { CoreError } from '../../errors.ts';
import {
  dataUri,
  eventHandler,
  externalReference,
  foreignElement,
  refusedCss,
  refusedElement,
  refusedProperty,
  SVG_NS,
} from './refusals.ts';

/**
 * The elements a black-on-white drawing needs, and nothing that loads, runs, embeds or is slow
 * to render (text, filters, masks, clip paths and markers: see docs/decisions.md, "SVG drawings").
 * An allow-list, so an element librsvg learns later is refused until someone decides otherwise.
 */
const DRAWING_ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'metadata',
  'style',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
]);

/** Properties that make the renderer draw offscreen layers per element (minutes for a few thousand). */
const REFUSED_PROPERTIES = ['filter', 'mask', 'clip-path', 'marker', 'marker-start', 'marker-mid', 'marker-end'];
const REFUSED_PROPERTY_IN_CSS = /(?<![\w-])(filter|mask|clip-path|marker(?:-start|-mid|-end)?)\s*:/i;

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** A reference the renderer resolves inside the document: `#id` and nothing else. */
const SAME_DOCUMENT = /^#[^\s#()'"\\]+$/;
const DATA_URI = /^data:/i;

/** What a parsed attribute carries (saxes' namespaced attribute). */
export interface Attribute {
  name: string;
  prefix: string;
  local: string;
  uri: string;
  value: string;
}

/** Why an element may not be in a drawing, or undefined when it may. */
export function elementProblem(name: string, uri: string, local: string, line?: number): CoreError | undefined {
  if (uri !== SVG_NS) return foreignElement(name, line);
  if (!DRAWING_ELEMENTS.has(local)) return refusedElement(local, line);
  return undefined;
}

export const isNamespaceDeclaration = (attribute: Attribute): boolean =>
  attribute.prefix === 'xmlns' || attribute.name === 'xmlns';

/** Why an attribute may not be in a drawing (scripts, outside references, slow properties), or undefined. */
export function attributeProblem(attribute: Attribute, element: string, line?: number): CoreError | undefined {
  if (isNamespaceDeclaration(attribute)) return undefined;
  const { name, local, value } = attribute;
  if (/^on/i.test(local)) return eventHandler(name, element, line);
  if (attribute.uri === XML_NS && local === 'base') return externalReference(name, value, element, line);
  if (local === 'href' && !SAME_DOCUMENT.test(value.trim())) {
    return DATA_URI.test(value.trim())
      ? dataUri(`${name} on <${element}>`, line)
      : externalReference(name, value, element, line);
  }
  if (REFUSED_PROPERTIES.includes(local.toLowerCase())) {
    return refusedProperty(local, `attribute on <${element}>`, line);
  }
  // librsvg reads attribute values with a CSS parser too, where `\75 rl(` spells url(.
  if (value.includes('\\')) return refusedCss('a backslash escape', `attribute ${name} on <${element}>`, line);
  if (local === 'style') {
    const problem = cssProblem(value, `style attribute on <${element}>`, line);
    if (problem) return problem;
  }
  return urlProblem(value, name, element, line);
}

/** The targets of every `url(...)` in a value or style sheet, quotes and spaces taken off. */
export function urlTargets(text: string): string[] {
  const targets: string[] = [];
  for (const match of text.matchAll(/url\s*\(/gi)) {
    const start = match.index + match[0].length;
    const end = text.indexOf(')', start);
    const inner = text
      .slice(start, end < 0 ? undefined : end)
      .trim()
      .replace(/^(['"])(.*)\1$/s, '$2')
      .trim();
    targets.push(inner);
  }
  return targets;
}

function urlProblem(value: string, attribute: string, element: string, line?: number): CoreError | undefined {
  for (const target of urlTargets(value)) {
    if (SAME_DOCUMENT.test(target)) continue;
    return DATA_URI.test(target)
      ? dataUri(`url() in ${attribute} on <${element}>`, line)
      : externalReference(attribute, value, element, line);
  }
  return undefined;
}

/** Comments end CSS tokens, so `filter/**\/:` is still the filter property: checked with and without them. */
const withoutComments = (css: string): string => css.replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ');

/**
 * Why CSS (a style attribute, or a `<style>` sheet when `sheet`) may not be in a drawing: any @
 * rule (@import, @font-face load files) or other @ outside an address, backslash escapes (which can spell any of the checked
 * words), the slow properties, and url() to anything outside the document; a sheet may hold no
 * url() at all, so every reference sits on the element that makes it and can be counted.
 */
export function cssProblem(css: string, where: string, line?: number, sheet = false): CoreError | undefined {
  // An @ inside url(...) is part of an address (user@host), checked below as a reference.
  const outsideUrls = css.replace(/url\s*\([^)]*\)?/gi, 'url()');
  const atRule = /@((?:-|[^\p{ASCII}]|[A-Za-z_])[^\s;{(]*)/u.exec(outsideUrls);
  if (atRule) {
    const rule = `@${atRule[1]}`;
    return refusedCss(
      rule.toLowerCase() === '@import' ? '@import, which loads a style sheet from outside' : `an ${rule} rule`,
      where,
      line,
    );
  }
  if (css.includes('\\')) return refusedCss('a backslash escape', where, line);
  const property = REFUSED_PROPERTY_IN_CSS.exec(css) ?? REFUSED_PROPERTY_IN_CSS.exec(withoutComments(css));
  if (property) return refusedProperty(property[1]!.toLowerCase(), where, line);
  const targets = urlTargets(css);
  const outside = targets.find((target) => !SAME_DOCUMENT.test(target));
  if (outside !== undefined) {
    return DATA_URI.test(outside)
      ? dataUri(`url() in the ${where}`, line)
      : refusedCss(`url(${outside.slice(0, 60)}), which points outside the document`, where, line);
  }
  if (outsideUrls.includes('@')) return refusedCss('an @ sign', where, line);
  if (sheet && targets.length > 0) {
    return refusedCss(
      'url(), which a <style> sheet may not use: put fill="url(#id)" on the element itself',
      where,
      line,
    );
  }
  return undefined;
}
