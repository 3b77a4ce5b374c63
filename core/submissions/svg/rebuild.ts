import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { Config } from '../../config.ts';
import type { CoreError } from '../../errors.ts';
import { err, ok, type Result } from '../../result.ts';
import { canvasEnd, canvasStart, placeOnCanvas, type Canvas } from './placement.ts';
import { expandedSize, type SvgNode } from './references.ts';
import {
  doctype,
  notSvg,
  processingInstruction,
  referenceLoop,
  SVG_NS,
  SvgRefusal,
  tooDeep,
  tooManyElements,
  undefinedEntity,
} from './refusals.ts';
import {
  attributeProblem,
  cssProblem,
  elementProblem,
  isNamespaceDeclaration,
  urlTargets,
  type Attribute,
} from './rules.ts';

/**
 * The document the renderer gets, rebuilt from what the parser read and the rules passed: every
 * element and attribute checked, comments dropped, text and values escaped again, the root's size
 * set to the canvas (`placeOnCanvas`) inside an `<svg>` of our own (`canvasStart`). The renderer never sees the agent's bytes, so nothing can
 * hide in a place our parser and libxml2 would read differently (encodings, entities, stray
 * markup). Stops at the first problem, which it names.
 */
export function rebuildSvg(text: string, limits: Config['svg'], canvas: Canvas): Result<string, CoreError> {
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '') return err(notSvg('the text is empty'));
  if (/^\s*(data:|iVBORw0KGgo)/.test(source)) {
    return err(notSvg('it looks like a data: URI or base64 PNG, not SVG markup'));
  }
  try {
    const read = readDocument(source, limits);
    const expansion = expandedSize(read.nodes, limits.maxElements);
    if (expansion.kind === 'loop') return err(referenceLoop(expansion.id));
    if (expansion.size > limits.maxElements) return err(tooManyElements(limits));
    const rootAttributes = placeOnCanvas(read.root.attributes, canvas);
    if (!rootAttributes.ok) return rootAttributes;
    const start = `<${read.root.name}${rootAttributes.value.map(serializeAttribute).join('')}>`;
    return ok(
      `<?xml version="1.0" encoding="UTF-8"?>\n${canvasStart(canvas)}${start}${read.body.join('')}${canvasEnd}`,
    );
  } catch (thrown) {
    if (thrown instanceof SvgRefusal) return err(thrown.error);
    throw thrown;
  }
}

interface ReadDocument {
  root: { name: string; attributes: Attribute[] };
  /** Everything after the root's start tag, serialized again. */
  body: string[];
  nodes: SvgNode[];
}

function readDocument(source: string, limits: Config['svg']): ReadDocument {
  const parser = new SaxesParser({ xmlns: true, position: true, forceXMLVersion: true, defaultXMLVersion: '1.0' });
  const refuse = (error: CoreError): never => {
    throw new SvgRefusal(error);
  };
  let root: ReadDocument['root'] | undefined;
  const body: string[] = [];
  const nodes: SvgNode[] = [];
  const open: number[] = [];
  let sheet: { css: string; line: number } | undefined;
  let elements = 0;

  parser.on('error', (error) => {
    const detail = error.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    refuse(
      /entity/i.test(detail)
        ? undefinedEntity(detail, parser.line)
        : notSvg(`it is not well-formed XML (line ${parser.line}: ${detail})`),
    );
  });
  parser.on('doctype', () => refuse(doctype(parser.line)));
  parser.on('processinginstruction', (pi) => refuse(processingInstruction(pi.target, parser.line)));
  parser.on('opentag', (tag: SaxesTagNS) => {
    const line = parser.line;
    if (open.length >= limits.maxDepth) refuse(tooDeep(limits, line));
    if (++elements > limits.maxElements) refuse(tooManyElements(limits));
    if (open.length === 0) checkRoot(tag, refuse);
    const problem = elementProblem(tag.name, tag.uri, tag.local, line);
    if (problem) refuse(problem);
    const attributes = Object.values(tag.attributes);
    for (const attribute of attributes) {
      const wrong = attributeProblem(attribute, tag.local, line);
      if (wrong) refuse(wrong);
    }
    const index = nodes.push(nodeOf(tag, attributes)) - 1;
    if (open.length > 0) nodes[open[open.length - 1]!]!.children.push(index);
    open.push(index);
    if (index === 0) root = { name: tag.name, attributes };
    else body.push(`<${tag.name}${attributes.map(serializeAttribute).join('')}>`);
    if (tag.local === 'style') sheet = { css: '', line };
  });
  parser.on('closetag', (tag: SaxesTagNS) => {
    open.pop();
    body.push(`</${tag.name}>`);
    if (tag.local === 'style' && sheet) {
      const problem = cssProblem(sheet.css, '<style> element', sheet.line, true);
      if (problem) refuse(problem);
      sheet = undefined;
    }
  });
  const onText = (text: string) => {
    if (open.length === 0) return;
    body.push(escapeText(text));
    if (sheet) sheet.css += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.write(source).close();
  if (!root) return refuse(notSvg('it has no root element'));
  return { root, body, nodes };
}

function checkRoot(tag: SaxesTagNS, refuse: (error: CoreError) => never): void {
  if (tag.local !== 'svg') refuse(notSvg(`its root element is <${tag.name}>, not <svg>`));
  if (tag.uri === '') refuse(notSvg('its root <svg> has no namespace: add xmlns="http://www.w3.org/2000/svg"'));
  if (tag.uri !== SVG_NS) {
    refuse(notSvg(`its root <svg> is in the namespace "${tag.uri}", not "${SVG_NS}"`));
  }
}

/** What the reference count needs of an element: its id and whom it points at. */
function nodeOf(tag: SaxesTagNS, attributes: Attribute[]): SvgNode {
  const refs: string[] = [];
  for (const attribute of attributes) {
    if (isNamespaceDeclaration(attribute)) continue;
    if (attribute.local === 'href' && (tag.local === 'use' || tag.local === 'pattern')) {
      refs.push(attribute.value.trim().slice(1));
    }
    for (const target of urlTargets(attribute.value)) refs.push(target.slice(1));
  }
  const id = attributes.find((a) => a.local === 'id' && (a.uri === '' || a.prefix === 'xml'))?.value.trim();
  return { local: tag.local, ...(id ? { id } : {}), children: [], refs };
}

const escapeText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const serializeAttribute = (attribute: Attribute): string =>
  ` ${attribute.name}="${attribute.value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')}"`;
