import type { Config } from '../../config.ts';
import { coreError, type CoreError } from '../../errors.ts';

export const SVG_NS = 'http://www.w3.org/2000/svg';

/** What a drawing may be made of, said the same way in every instruction. */
const ACCEPTED =
  'a self-contained SVG: root <svg xmlns="http://www.w3.org/2000/svg" viewBox="..."> drawn with <path>, <rect>, <circle>, <ellipse>, <line>, <polyline>, <polygon>, <g>, <use href="#id">, black fill on white';

const SEND_AGAIN = 'and send the SVG again';

/**
 * A problem found in the SVG text before anything renders it. Thrown only inside the parser's
 * event handlers to stop the parse at the first problem; `drawingFromSvg` turns it into a value.
 */
export class SvgRefusal {
  readonly error: CoreError;
  constructor(error: CoreError) {
    this.error = error;
  }
}

/** "at line 3": where the parser was when it found the problem. */
const atLine = (line: number | undefined): string => (line === undefined ? '' : ` at line ${line}`);

/** An agent's value quoted in a message, cut short so one long attribute cannot flood the answer. */
export const quote = (value: string): string => {
  const flat = value.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 77)}...` : flat);
};

const invalidSvg = (message: string, instruction: string): CoreError =>
  coreError('INVALID_FILE', { message, agent_instruction: instruction });

export function notSvg(problem: string): CoreError {
  return invalidSvg(
    `The text is not an SVG document: ${problem}.`,
    `Send the SVG document itself as text: well-formed XML (an <?xml ...?> declaration first is fine, no DOCTYPE), ${ACCEPTED}. Fix the named problem ${SEND_AGAIN}.`,
  );
}

export function doctype(line?: number): CoreError {
  return invalidSvg(
    `The SVG has a DOCTYPE declaration${atLine(line)}. DOCTYPEs and their XML entities are refused: they can expand without bound or load files from outside the document.`,
    `Delete the <!DOCTYPE ...> declaration, write characters themselves instead of &name; entities (only &amp; &lt; &gt; &quot; &apos; and &#...; are accepted) ${SEND_AGAIN}.`,
  );
}

export function undefinedEntity(detail: string, line?: number): CoreError {
  return invalidSvg(
    `The SVG uses an XML entity that is not defined${atLine(line)} (${detail}). Entities other than &amp; &lt; &gt; &quot; &apos; and character references are refused.`,
    `Write the characters themselves instead of &name; entities ${SEND_AGAIN}.`,
  );
}

export function processingInstruction(target: string, line?: number): CoreError {
  return invalidSvg(
    `The SVG has a processing instruction <?${target} ...?>${atLine(line)}. Only the <?xml ...?> declaration is accepted; an xml-stylesheet would load a style sheet from outside the document.`,
    `Delete the <?${target} ...?> line; put styles in attributes (fill="#000") or a <style> element inside the SVG, ${SEND_AGAIN}.`,
  );
}

export function externalReference(attribute: string, value: string, element: string, line?: number): CoreError {
  return invalidSvg(
    `The SVG refers to something outside the document: ${attribute}=${quote(value)} on <${element}>${atLine(line)}. Only references to an element of the same document (href="#id", url(#id)) are accepted.`,
    `Draw everything inside this one SVG: point href and url() only at ids in the same document (href="#id", fill="url(#id)"), ${SEND_AGAIN}.`,
  );
}

/** `where`: e.g. `href on <image>`, `url() in the style attribute on <rect>`. */
export function dataUri(where: string, line?: number): CoreError {
  return invalidSvg(
    `The SVG embeds content through a data: URI (${where}${atLine(line)}). Embedded images and files are refused.`,
    `Draw the shapes with SVG elements (<path>, <rect>, <circle>, ...) instead of embedding an image, ${SEND_AGAIN}.`,
  );
}

export function eventHandler(attribute: string, element: string, line?: number): CoreError {
  return invalidSvg(
    `The SVG has an event-handler attribute ${attribute} on <${element}>${atLine(line)}. Scripts of any kind are refused.`,
    `Delete every on... attribute and every <script> element; a drawing is only shapes, ${SEND_AGAIN}.`,
  );
}

export function refusedProperty(property: string, where: string, line?: number): CoreError {
  return invalidSvg(
    `The SVG uses the ${property} property (${where}${atLine(line)}). Filters, masks, clip paths and markers are refused: they are slow to render and filters make grey.`,
    `Draw the final shape directly: black shapes for metal, white shapes on top (or fill-rule="evenodd") for openings; no filter, mask, clip-path or marker, ${SEND_AGAIN}.`,
  );
}

export function refusedCss(problem: string, where: string, line?: number): CoreError {
  return invalidSvg(
    `The SVG's CSS (${where}${atLine(line)}) contains ${problem}.`,
    `Keep CSS to plain properties such as fill, stroke and stroke-width (no @ rules, no backslash escapes, url(#id) only in an element's own attributes), or use presentation attributes (fill="#000") instead, ${SEND_AGAIN}.`,
  );
}

export function foreignElement(name: string, line?: number): CoreError {
  return invalidSvg(
    `The SVG has an element <${name}> outside the SVG namespace${atLine(line)}. Only SVG elements are accepted (no HTML, XInclude or editor elements).`,
    `Delete <${name}> and anything inside it; use only ${ACCEPTED}; ${SEND_AGAIN}.`,
  );
}

/** Why an SVG element is refused, by kind; the instruction says what to draw instead. */
const REFUSED_KINDS: Array<{ match: (local: string) => boolean; why: string; instead: string }> = [
  { match: (l) => l === 'script', why: 'scripts are refused', instead: 'a drawing is only shapes' },
  {
    match: (l) => ['image', 'foreignObject', 'iframe', 'embed', 'object', 'video', 'audio', 'canvas'].includes(l),
    why: 'embedded images, HTML and media are refused',
    instead: 'draw the shapes with SVG elements instead of embedding content',
  },
  {
    match: (l) => l === 'filter' || /^fe[A-Z]/.test(l),
    why: 'filters are refused: they are slow to render and make grey',
    instead: 'draw flat black shapes',
  },
  {
    match: (l) => ['mask', 'clipPath', 'marker'].includes(l),
    why: 'masks, clip paths and markers are refused: they are slow to render',
    instead: 'draw the final shape directly, with white shapes on top (or fill-rule="evenodd") for openings',
  },
  {
    match: (l) =>
      ['text', 'tspan', 'textPath', 'tref', 'altGlyph', 'font', 'glyph'].includes(l) || l.startsWith('font-'),
    why: 'text is refused: fonts differ from server to server and the letters would not be the ones you saw',
    instead: 'draw letters as <path> outlines',
  },
  { match: (l) => l === 'a', why: 'links are refused', instead: 'use <g> to group shapes' },
  {
    match: (l) => l.startsWith('animate') || ['set', 'mpath', 'discard'].includes(l),
    why: 'animation is refused',
    instead: 'draw the design as it should be cut',
  },
];

export function refusedElement(local: string, line?: number): CoreError {
  const kind = REFUSED_KINDS.find((k) => k.match(local));
  const why = kind?.why ?? 'it is not an element a drawing may use';
  const instead = kind?.instead ?? `use only ${ACCEPTED}`;
  return invalidSvg(
    `The SVG has a <${local}> element${atLine(line)}: ${why}.`,
    `Delete <${local}>; ${instead}; ${SEND_AGAIN}.`,
  );
}

export function tooDeep(svg: Config['svg'], line?: number): CoreError {
  return invalidSvg(
    `The SVG nests elements more than ${svg.maxDepth} levels deep${atLine(line)}; at most ${svg.maxDepth} levels are accepted (the root <svg> is level 1).`,
    `Flatten the groups: at most ${svg.maxDepth} levels of nesting, ${SEND_AGAIN}.`,
  );
}

export function referenceLoop(id: string): CoreError {
  return invalidSvg(
    `The SVG's references form a loop: #${id} leads back to itself through <use>, href or url(#...).`,
    `Make every <use href="#id"> and url(#id) point at an element that does not contain or point back to it, ${SEND_AGAIN}.`,
  );
}

export function badViewBox(value: string): CoreError {
  return invalidSvg(
    `The root <svg> has viewBox=${quote(value)}; a viewBox is four numbers "minX minY width height" with a positive width and height.`,
    `Use viewBox="0 0 W H" with the canvas size (job.drawing.recommendedPixels), ${SEND_AGAIN}.`,
  );
}

export function tooManyBytes(bytes: number, svg: Config['svg']): CoreError {
  return coreError('FILE_TOO_LARGE', {
    message: `The SVG text is ${bytes.toLocaleString('en')} bytes; at most ${svg.maxBytes.toLocaleString('en')} bytes are accepted.`,
    agent_instruction: `Make the SVG smaller than ${svg.maxBytes.toLocaleString('en')} bytes: fewer elements, shorter path data (whole numbers or one decimal), no comments or metadata, ${SEND_AGAIN}.`,
  });
}

export function tooManyElements(svg: Config['svg']): CoreError {
  return coreError('FILE_TOO_LARGE', {
    message: `The SVG has more than ${svg.maxElements.toLocaleString('en')} elements (each <use> or url(#...) reference counts as a copy of what it points to); at most ${svg.maxElements.toLocaleString('en')} are accepted.`,
    agent_instruction: `Simplify the drawing to at most ${svg.maxElements.toLocaleString('en')} elements: merge shapes into fewer <path> elements and repeat less through <use>, ${SEND_AGAIN}.`,
  });
}

export function renderTimedOut(svg: Config['svg']): CoreError {
  return coreError('FILE_TOO_LARGE', {
    message: `The SVG took longer than ${svg.renderTimeoutSec} seconds to render and was stopped.`,
    agent_instruction: `Simplify the drawing so it renders within ${svg.renderTimeoutSec} seconds: fewer and simpler paths, no paths that cross themselves many times, fewer large overlapping shapes; ${SEND_AGAIN}.`,
  });
}

export function renderFailed(): CoreError {
  return invalidSvg(
    'The SVG passed the checks but the renderer could not draw it.',
    `Simplify the SVG to plain shapes (${ACCEPTED}) ${SEND_AGAIN}.`,
  );
}
