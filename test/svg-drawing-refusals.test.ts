import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../core/errors.ts';
import { silentLogger } from '../core/logger.ts';
import { buildConfig } from '../core/config.ts';
import { drawingFromSvg, svgDrawingRules } from '../core/submissions/svg-drawing.ts';
import { roomyRateLimits } from './helpers/flows.ts';
import { servicePerFile } from './helpers/service.ts';
import { countingRenderer, openCoreJob, SVG_NS, svgDocument } from './helpers/svg-drawings.ts';

/*
 * What core.drawingFromSvg refuses, one hand-made document per class, each checked before any
 * rendering (the renderer counts its calls): the code, a message naming the problem and an
 * instruction saying what to do. The generated hostile documents are in svg-drawing-hostile.test.ts.
 */

const doc = (body: string, root = 'viewBox="0 0 1536 1024"') => svgDocument(body, root);
const strip = '<rect x="64" y="421" width="1408" height="182"/>';

interface Case {
  name: string;
  svg: string;
  code: ErrorCode;
  message: RegExp;
}

const cases: Case[] = [
  // Not an SVG document.
  { name: 'empty text', svg: '  \n', code: 'INVALID_FILE', message: /not an SVG document: the text is empty/ },
  { name: 'plain words', svg: 'a bracelet with hearts', code: 'INVALID_FILE', message: /not well-formed XML/ },
  {
    name: 'base64 PNG',
    svg: 'iVBORw0KGgoAAAANSUhEUgAA',
    code: 'INVALID_FILE',
    message: /looks like a data: URI or base64 PNG/,
  },
  {
    name: 'unclosed element',
    svg: `<svg xmlns="${SVG_NS}"><g>${strip}</svg>`,
    code: 'INVALID_FILE',
    message: /not well-formed XML \(line 1/,
  },
  {
    name: 'root is not svg',
    svg: `<g xmlns="${SVG_NS}">${strip}</g>`,
    code: 'INVALID_FILE',
    message: /root element is <g>/,
  },
  { name: 'root without namespace', svg: `<svg>${strip}</svg>`, code: 'INVALID_FILE', message: /add xmlns=/ },
  {
    name: 'root in another namespace',
    svg: `<svg xmlns="http://www.w3.org/1999/xhtml">${strip}</svg>`,
    code: 'INVALID_FILE',
    message: /in the namespace "http:\/\/www.w3.org\/1999\/xhtml"/,
  },
  // DOCTYPEs and entities.
  {
    name: 'billion laughs',
    svg: `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg xmlns="${SVG_NS}"><title>&c;</title></svg>`,
    code: 'INVALID_FILE',
    message: /has a DOCTYPE declaration at line 1/,
  },
  {
    name: 'external entity (XXE)',
    svg: `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<svg xmlns="${SVG_NS}"><title>&x;</title></svg>`,
    code: 'INVALID_FILE',
    message: /DOCTYPE/,
  },
  {
    name: 'public DOCTYPE of SVG 1.1',
    svg: `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">${doc(strip)}`,
    code: 'INVALID_FILE',
    message: /DOCTYPE/,
  },
  { name: 'undefined entity', svg: doc(`<title>&nbsp;</title>${strip}`), code: 'INVALID_FILE', message: /XML entity/ },
  {
    name: 'xml-stylesheet',
    svg: `<?xml-stylesheet href="https://example.com/a.css" type="text/css"?>${doc(strip)}`,
    code: 'INVALID_FILE',
    message: /processing instruction <\?xml-stylesheet/,
  },
  // References outside the document.
  ...[
    ['use of another file', '<use href="shapes.svg#heart"/>', /href="shapes.svg#heart" on <use>/],
    ['xlink:href to http', '<use xlink:href="http://example.com/a.svg#x"/>', /xlink:href="http:/],
    ['file: URL', '<use href="file:///etc/passwd"/>', /href="file:\/\/\/etc\/passwd"/],
    ['protocol-relative', '<use href="//example.com/a#b"/>', /refers to something outside/],
    ['javascript: URL', '<use href="javascript:alert(1)"/>', /refers to something outside/],
    ['fill url() to a file', `<rect width="9" height="9" fill="url(paint.svg#g)"/>`, /fill="url\(paint.svg#g\)"/],
    ['stroke url() to http', `<rect width="9" height="9" stroke="url('http://x.org/p#a')"/>`, /stroke=/],
    [
      'style url() to http',
      `<rect width="9" height="9" style="fill: url(&quot;http://x.org/#a&quot;)"/>`,
      /style attribute on <rect>.*points outside the document/,
    ],
    ['xml:base', `<g xml:base="http://example.com/">${strip}</g>`, /xml:base/],
    ['pattern template elsewhere', '<pattern id="p" href="other.svg#q"/>', /on <pattern>/],
  ].map(([name, body, message]) => ({
    name: name as string,
    svg: doc(`${strip}${body as string}`),
    code: 'INVALID_FILE' as const,
    message: message as RegExp,
  })),
  // data: URIs.
  ...[
    ['use of a data: SVG', '<use href="data:image/svg+xml;base64,PHN2Zy8+#a"/>'],
    ['fill of a data: URI', '<rect width="5" height="5" fill="url(data:image/png;base64,AAAA)"/>'],
    ['style of a data: URI', `<rect width="5" height="5" style="fill:url('data:,x')"/>`],
  ].map(([name, body]) => ({
    name: name!,
    svg: doc(`${strip}${body!}`),
    code: 'INVALID_FILE' as const,
    message: /embeds content through a data: URI/,
  })),
  // Elements.
  ...[
    ['script', '<script>alert(1)</script>', /<script> element.*scripts are refused/],
    ['image', '<image href="#a" width="9" height="9"/>', /<image> element.*embedded images/],
    [
      'foreignObject',
      '<foreignObject width="9" height="9"><div xmlns="http://www.w3.org/1999/xhtml"/></foreignObject>',
      /<foreignObject>/,
    ],
    ['iframe in the SVG namespace', '<iframe/>', /<iframe> element.*embedded/],
    ['embed', '<embed/>', /<embed> element/],
    ['object', '<object/>', /<object> element/],
    [
      'HTML iframe',
      '<iframe xmlns="http://www.w3.org/1999/xhtml" src="https://example.com"/>',
      /<iframe> outside the SVG namespace/,
    ],
    [
      'XInclude',
      '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/>',
      /<xi:include> outside the SVG namespace/,
    ],
    ['text', '<text x="9" y="9">LOVE</text>', /<text> element.*text is refused/],
    ['filter', '<filter id="f"><feGaussianBlur stdDeviation="900"/></filter>', /<filter> element.*filters are refused/],
    ['mask', '<mask id="m"><rect width="9" height="9"/></mask>', /<mask> element.*slow to render/],
    ['clipPath', '<clipPath id="c"><rect width="9" height="9"/></clipPath>', /<clipPath> element/],
    ['marker', '<marker id="m"/>', /<marker> element/],
    ['link', `<a href="#x">${strip}</a>`, /<a> element.*links are refused/],
    ['animation', '<animate attributeName="x" to="9"/>', /<animate> element.*animation/],
  ].map(([name, body, message]) => ({
    name: name as string,
    svg: doc(`${strip}${body as string}`),
    code: 'INVALID_FILE' as const,
    message: message as RegExp,
  })),
  // Event handlers and slow properties.
  ...[
    ['onload on the root', '', 'viewBox="0 0 1536 1024" onload="alert(1)"', /event-handler attribute onload on <svg>/],
    [
      'onclick on a shape',
      '<rect width="9" height="9" onClick="x()"/>',
      undefined,
      /event-handler attribute onClick on <rect>/,
    ],
    [
      'filter attribute',
      '<rect width="9" height="9" filter="blur(20)"/>',
      undefined,
      /uses the filter property \(attribute on <rect>/,
    ],
    [
      'filter in a style attribute',
      '<rect width="9" height="9" style="filter: blur(20px)"/>',
      undefined,
      /filter property \(style attribute/,
    ],
    [
      'filter behind a comment',
      '<rect width="9" height="9" style="filter/**/: blur(2px)"/>',
      undefined,
      /filter property/,
    ],
    ['mask attribute', '<rect width="9" height="9" mask="url(#m)"/>', undefined, /mask property/],
    ['clip-path attribute', '<rect width="9" height="9" clip-path="circle(5px)"/>', undefined, /clip-path property/],
    ['marker-end attribute', '<path d="M0 0L9 9" marker-end="url(#m)"/>', undefined, /marker-end property/],
  ].map(([name, body, root, message]) => ({
    name: name as string,
    svg: doc(`${strip}${body as string}`, (root as string | undefined) ?? 'viewBox="0 0 1536 1024"'),
    code: 'INVALID_FILE' as const,
    message: message as RegExp,
  })),
  // CSS.
  ...[
    ['@import', '<style>@import url(https://example.com/a.css);</style>', /contains @import/],
    ['@font-face', `<style>@font-face { font-family: x; src: local(x) }</style>`, /an @font-face rule/],
    [
      'url() to a file in a sheet',
      '<style>rect { fill: url(a.svg#p) }</style>',
      /url\(a.svg#p\), which points outside/,
    ],
    ['url(#id) in a sheet', '<style>rect { fill: url(#p) }</style>', /url\(\), which a <style> sheet may not use/],
    ['escaped url in a sheet', '<style>rect { fill: \\75 rl(http://x) }</style>', /backslash escape/],
    ['escaped url in an attribute', '<rect width="9" height="9" fill="\\75 rl(http://x)"/>', /backslash escape/],
    [
      'filter in a sheet',
      '<style><![CDATA[ rect { FILTER: blur(9px) } ]]></style>',
      /filter property \(<style> element/,
    ],
  ].map(([name, body, message]) => ({
    name: name as string,
    svg: doc(`${strip}${body as string}`),
    code: 'INVALID_FILE' as const,
    message: message as RegExp,
  })),
  // Structure.
  {
    name: 'a reference loop',
    svg: doc(`<g id="a">${strip}<use href="#b"/></g><g id="b"><use href="#a"/></g>`),
    code: 'INVALID_FILE',
    message: /references form a loop: #a/,
  },
  {
    name: 'a use of its own ancestor',
    svg: doc(`<g id="me"><use href="#me"/></g>`),
    code: 'INVALID_FILE',
    message: /loop: #me/,
  },
  {
    name: 'a bad viewBox',
    svg: doc(strip, 'viewBox="0 0 -5 10"'),
    code: 'INVALID_FILE',
    message: /viewBox="0 0 -5 10"/,
  },
  { name: 'a viewBox of words', svg: doc(strip, 'viewBox="all of it"'), code: 'INVALID_FILE', message: /four numbers/ },
];

describe('SVG text core.drawingFromSvg refuses before rendering', () => {
  const service = servicePerFile({ config: { limits: roomyRateLimits } });

  it.each(cases)('$name: $code naming the problem', async ({ svg, code, message }) => {
    const job = await openCoreJob(service.core);
    const renderer = countingRenderer();
    const result = await drawingFromSvg({ config: service.core.config, log: silentLogger }, renderer, job.row, svg);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(code);
    expect(result.error.message).toMatch(message);
    expect(result.error.agent_instruction).toMatch(/send the SVG again|send the drawing/);
    expect(result.error.status).toBe(code === 'FILE_TOO_LARGE' ? 413 : 400);
    expect(renderer.calls, 'nothing refused reaches the renderer').toBe(0);
  });
});

describe('the size limits come from the live configuration', () => {
  const svg = { maxBytes: 4321, maxElements: 77, maxDepth: 9, renderTimeoutSec: 3, concurrentRenders: 1 };
  const service = servicePerFile({ config: { svg, limits: roomyRateLimits } });
  const refusal = async (text: string) => {
    const job = await openCoreJob(service.core);
    const result = await service.core.drawingFromSvg(job.row, text);
    if (result.ok) throw new Error('accepted');
    return result.error;
  };

  it('text over svg.maxBytes is FILE_TOO_LARGE stating both sizes', async () => {
    const text = doc(`${strip}<desc>${'é'.repeat(2200)}</desc>`);
    const error = await refusal(text);
    expect(error.code).toBe('FILE_TOO_LARGE');
    expect(error.message).toBe(
      `The SVG text is ${Buffer.byteLength(text).toLocaleString('en')} bytes; at most 4,321 bytes are accepted.`,
    );
    expect(error.agent_instruction).toContain('4,321 bytes');
  });

  it('more than svg.maxElements elements is FILE_TOO_LARGE stating the cap', async () => {
    const error = await refusal(doc('<rect width="1" height="1"/>'.repeat(77)));
    expect(error.code).toBe('FILE_TOO_LARGE');
    expect(error.message).toMatch(/more than 77 elements/);
    expect(error.agent_instruction).toMatch(/at most 77 elements/);
  });

  it('references count as copies: 10 uses of a group of 10 rects is over 77', async () => {
    const group = `<g id="ten">${'<rect width="1" height="1"/>'.repeat(10)}</g>`;
    const error = await refusal(doc(`<defs>${group}</defs>${'<use href="#ten"/>'.repeat(10)}`));
    expect(error.code).toBe('FILE_TOO_LARGE');
    expect(error.message).toMatch(/each <use> or url\(#\.\.\.\) reference counts as a copy/);
  });

  // Levels count from the root <svg> (level 1) to the deepest element.
  it('nesting deeper than svg.maxDepth is refused stating the depth', async () => {
    const error = await refusal(doc(`${'<g>'.repeat(8)}${strip}${'</g>'.repeat(8)}`));
    expect(error.code).toBe('INVALID_FILE');
    expect(error.message).toMatch(/more than 9 levels deep at line 1; at most 9 levels/);
  });

  it('nesting up to svg.maxDepth is accepted and rendered', async () => {
    const job = await openCoreJob(service.core);
    const result = await service.core.drawingFromSvg(job.row, doc(`${'<g>'.repeat(7)}${strip}${'</g>'.repeat(7)}`));
    expect(result.ok).toBe(true);
  });
});

describe('a use bomb under the default limits', () => {
  const service = servicePerFile({ config: { limits: roomyRateLimits } });

  it('eight levels of ten uses (10^8 copies) is refused by counting, without rendering', async () => {
    const job = await openCoreJob(service.core);
    let body = '<defs><rect id="l0" width="2" height="2"/>';
    for (let level = 1; level <= 8; level++) {
      body += `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`;
    }
    const renderer = countingRenderer();
    const started = performance.now();
    const result = await drawingFromSvg(
      { config: service.core.config, log: silentLogger },
      renderer,
      job.row,
      doc(`${body}</defs><use href="#l8"/>`),
    );
    expect(result.ok ? undefined : result.error.code).toBe('FILE_TOO_LARGE');
    expect(result.ok ? '' : result.error.message).toMatch(/more than 20,000 elements/);
    expect(renderer.calls).toBe(0);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('the SVG drawing rules for a tool description', () => {
  it('quote the live limits and canvas', () => {
    const config = buildConfig({
      svg: { maxBytes: 4321, maxElements: 77, maxDepth: 9, renderTimeoutSec: 3 },
      image: { recommendedPixels: { width: 1200, height: 800 } },
    });
    const text = svgDrawingRules(config).join('\n');
    expect(text).toContain('rendered on the 1200x800 canvas');
    expect(text).toContain('viewBox="0 0 1200 800"');
    expect(text).toContain('At most 4,321 bytes and 77 elements');
    expect(text).toContain('9 levels of nesting, and 3 seconds to render');
  });
});
