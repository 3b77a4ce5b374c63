import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/config.ts';
import { silentLogger } from '../core/logger.ts';
import { drawingFromSvg } from '../core/submissions/svg-drawing.ts';
import { rebuildSvg } from '../core/submissions/svg/rebuild.ts';
import { roomyRateLimits } from './helpers/flows.ts';
import { servicePerFile } from './helpers/service.ts';
import { countingRenderer, openCoreJob, SVG_NS } from './helpers/svg-drawings.ts';

/*
 * Generated hostile documents: an otherwise valid drawing (random shapes, groups and a <use>)
 * with one hostile piece placed at random: an element among the shapes, an attribute on a
 * random element, CSS in a sheet or a style attribute, or a DOCTYPE or processing instruction
 * before the root. Every one is refused with the message of its class, and none reaches the
 * renderer; the same document without the piece is accepted. FC_SEED replays a run; FC_RUNS
 * multiplies the number of runs.
 */
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const SCALE = Number(process.env.FC_RUNS ?? 1);
const runs = (numRuns: number) => ({
  numRuns: Math.round(numRuns * SCALE),
  ...(SEED === undefined ? {} : { seed: SEED }),
});

const OUTSIDE = /refers to something outside the document|points outside the document/;
const DATA = /embeds content through a data: URI/;

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

const externalUrl = fc.oneof(
  fc.constantFrom(
    'http://evil.example/x.svg#a',
    'HTTPS://evil.example/a',
    'file:///etc/passwd',
    '//evil.example/a#b',
    'ftp://x/y',
    'javascript:alert(1)',
    'shapes.svg#heart',
    '../secret.svg',
    'x',
    ' #a b',
  ),
  fc.webUrl({ withFragments: true, withQueryParameters: true }),
);
const dataUrl = fc.oneof(
  fc.constantFrom('data:,x', 'DATA:image/svg+xml,<svg/>', ' data:image/png;base64,iVBORw0KGgo='),
  fc.base64String({ minLength: 4, maxLength: 40 }).map((b) => `data:image/png;base64,${b}`),
);
/** Written as an author would inside url(): parentheses and quotes percent-encoded. */
const quoted = (url: string) => {
  const target = url.replace(/[()'"]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return fc.constantFrom(
    `url(${target})`,
    `url('${target}')`,
    `url( "${target}" )`,
    `URL(${target})`,
    `url (${target})`,
  );
};

interface Piece {
  text: string;
  message: RegExp;
}
const piece =
  (message: RegExp) =>
  (text: string): Piece => ({ text, message });

/** Hostile elements, placed among the shapes. */
const hostileElement: fc.Arbitrary<Piece> = fc.oneof(
  fc.constantFrom(
    { text: '<script>alert(1)</script>', message: /<script> element/ },
    { text: '<script href="https://evil.example/x.js"/>', message: /<script> element/ },
    { text: '<image width="9" height="9" href="#a"/>', message: /<image> element/ },
    {
      text: '<foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject>',
      message: /<foreignObject>/,
    },
    { text: '<iframe/>', message: /<iframe> element/ },
    { text: '<embed/>', message: /<embed> element/ },
    { text: '<object/>', message: /<object> element/ },
    { text: '<text>hi</text>', message: /<text> element/ },
    { text: '<filter id="f"><feGaussianBlur stdDeviation="99"/></filter>', message: /<filter> element/ },
    { text: '<mask id="m"/>', message: /<mask> element/ },
    { text: '<clipPath id="c"/>', message: /<clipPath> element/ },
    { text: '<marker id="k"/>', message: /<marker> element/ },
    { text: '<a href="#s0"><rect width="3" height="3"/></a>', message: /<a> element/ },
    { text: '<set attributeName="fill" to="red"/>', message: /<set> element/ },
    {
      text: '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd"/>',
      message: /outside the SVG namespace/,
    },
    { text: '<h:div xmlns:h="http://www.w3.org/1999/xhtml"/>', message: /outside the SVG namespace/ },
  ),
  externalUrl.map((u) => ({ text: `<use href="${attr(u)}"/>`, message: OUTSIDE })),
  externalUrl.map((u) => ({ text: `<use xlink:href="${attr(u)}"/>`, message: OUTSIDE })),
  dataUrl.map((u) => ({ text: `<use href="${attr(u)}"/>`, message: DATA })),
  externalUrl.map((u) => ({ text: `<pattern id="p9" href="${attr(u)}"/>`, message: OUTSIDE })),
);

/** Hostile attributes, placed on a random element (root included). */
const hostileAttribute: fc.Arbitrary<Piece> = fc.oneof(
  fc
    .constantFrom('onload', 'onclick', 'onmouseover', 'onbegin', 'onfocusin', 'ONLOAD', 'OnClick')
    .map((name) => ({ text: `${name}="alert(1)"`, message: new RegExp(`event-handler attribute ${name}`) })),
  fc
    .tuple(fc.constantFrom('fill', 'stroke'), externalUrl.chain(quoted))
    .map(([name, value]) => piece(OUTSIDE)(`${name}="${attr(value)}"`)),
  fc
    .tuple(fc.constantFrom('fill', 'stroke'), dataUrl.chain(quoted))
    .map(([name, value]) => piece(DATA)(`${name}="${attr(value)}"`)),
  externalUrl.chain(quoted).map((value) => piece(OUTSIDE)(`style="fill: ${attr(value)}"`)),
  fc
    .constantFrom('filter="blur(9)"', 'mask="url(#m)"', 'clip-path="url(#c)"', 'marker-start="url(#k)"')
    .map(piece(/property/)),
  fc.constantFrom('style="filter:blur(9px)"', 'style="fill:#000; MASK: url(#m)"').map(piece(/property/)),
  fc.constantFrom('xml:base="http://evil.example/"').map(piece(OUTSIDE)),
  fc.constantFrom('fill="\\75 rl(http://x)"', 'style="fill:\\75 rl(#a)"').map(piece(/backslash escape/)),
);

/** Hostile style sheets, placed among the shapes. */
const hostileSheet: fc.Arbitrary<Piece> = fc.oneof(
  externalUrl.map((u) => piece(/@import/)(`<style>@import "${attr(u)}";</style>`)),
  externalUrl
    .chain(quoted)
    .map((u) => piece(/@import/)(`<style><![CDATA[@IMPORT ${u.replace(/]]>/g, '')};]]></style>`)),
  fc
    .constantFrom('<style>@font-face { src: local(x) }</style>', '<style>@media print { rect { fill: #fff } }</style>')
    .map(piece(/@font-face rule|@media rule/)),
  externalUrl
    .chain(quoted)
    .map((u) => piece(/points outside the document/)(`<style>rect { fill: ${attr(u)} }</style>`)),
  dataUrl.chain(quoted).map((u) => piece(DATA)(`<style>rect { fill: ${attr(u)} }</style>`)),
  fc
    .constantFrom('<style>g { filter: blur(3px) }</style>', '<style>*{clip-path:/**/inset(9px)}</style>')
    .map(piece(/property/)),
  fc.constantFrom('<style>rect { fill: \\75 rl(x) }</style>').map(piece(/backslash/)),
);

/** Hostile prologs, placed before the root. */
const hostileProlog: fc.Arbitrary<Piece> = fc.oneof(
  fc
    .constantFrom(
      '<!DOCTYPE svg>',
      '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]>',
      '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">',
    )
    .map(piece(/DOCTYPE/)),
  externalUrl.map((u) => piece(/processing instruction/)(`<?xml-stylesheet href="${attr(u)}" type="text/css"?>`)),
);

/** A valid shape in canvas pixels; `slot` marks where an attribute may go. */
const shape = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 200 }))
    .map(([x, y, s]) => `<rect x="${x}" y="${y}" width="${s}" height="${s}"SLOT/>`),
  fc
    .tuple(fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 90 }))
    .map(([x, y, r]) => `<circle cx="${x}" cy="${y}" r="${r}"SLOT/>`),
  fc
    .tuple(fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 0, max: 1000 }))
    .map(([x, y]) => `<path d="M${x} ${y} l30 0 l0 30 z" fill-rule="evenodd"SLOT/>`),
  fc.constant('<use href="#s0" x="3"SLOT/>'),
);

interface Host {
  before: string[];
  after: string[];
  groups: number;
  on: number;
}
const host: fc.Arbitrary<Host> = fc.record({
  before: fc.array(shape, { maxLength: 4 }),
  after: fc.array(shape, { maxLength: 4 }),
  groups: fc.integer({ min: 0, max: 3 }),
  /** Which element takes an attribute piece: 0 the root, else the nth shape. */
  on: fc.nat(),
});

type Placement = 'element' | 'attribute' | 'prolog';
const hostile: fc.Arbitrary<{ where: Placement; piece: Piece }> = fc.oneof(
  hostileElement.map((p) => ({ where: 'element' as const, piece: p })),
  hostileSheet.map((p) => ({ where: 'element' as const, piece: p })),
  hostileAttribute.map((p) => ({ where: 'attribute' as const, piece: p })),
  hostileProlog.map((p) => ({ where: 'prolog' as const, piece: p })),
);

/** The drawing with the piece placed, and the same drawing without it. */
function build(h: Host, where: Placement, text: string): { hostile: string; clean: string } {
  const make = (withPiece: boolean) => {
    const shapes = [...h.before, ...h.after];
    const target = withPiece && where === 'attribute' ? h.on % (shapes.length + 1) : -1;
    const fill = (s: string, i: number) => s.replace('SLOT', target === i + 1 ? ` ${text}` : '');
    const before = h.before.map((s, i) => fill(s, i)).join('');
    const after = h.after.map((s, i) => fill(s, i + h.before.length)).join('');
    const inner = withPiece && where === 'element' ? `${'<g>'.repeat(h.groups)}${text}${'</g>'.repeat(h.groups)}` : '';
    const rootAttr = target === 0 ? ` ${text}` : '';
    const prolog = withPiece && where === 'prolog' ? text : '';
    return (
      `${prolog}<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1536 1024"${rootAttr}>` +
      `<rect id="s0" x="64" y="421" width="1408" height="182"/>${before}${inner}${after}</svg>`
    );
  };
  return { hostile: make(true), clean: make(false) };
}

describe('generated hostile SVG documents', () => {
  const service = servicePerFile({ config: { limits: roomyRateLimits } });

  it('are each refused with the message of their class, and never reach the renderer', async () => {
    const job = await openCoreJob(service.core);
    const renderer = countingRenderer();
    const deps = { config: service.core.config, log: silentLogger };
    await fc.assert(
      fc.asyncProperty(host, hostile, async (h, { where, piece: p }) => {
        const { hostile: text, clean } = build(h, where, p.text);
        expect(rebuildSvg(clean, defaultConfig.svg, { width: 1536, height: 1024 }).ok, clean).toBe(true);
        const result = await drawingFromSvg(deps, renderer, job.row, text);
        expect(result.ok, text).toBe(false);
        if (result.ok) return;
        expect(result.error.code, text).toBe('INVALID_FILE');
        expect(result.error.message, text).toMatch(p.message);
        expect(result.error.agent_instruction).toBeTruthy();
      }),
      runs(400),
    );
    expect(renderer.calls).toBe(0);
  });
});
