import { describe, expect, it } from 'vitest';
import { checkCutSvg } from '../helpers/cut-check/index.ts';
import { parseCutSvg } from '../helpers/cut-check/svg-format.ts';
import { cuttingSvg, rect, RULES } from '../helpers/cut-check/test-shapes.ts';

describe('the cutting SVG format', () => {
  it('reads a file in the contract format exactly, in thousandths, without a problem', () => {
    const file = parseCutSvg(cuttingSvg(20.5, 8.125, [[rect(2.001, 3, 1.5, 2), rect(2.5, 3.5, 0.5, 0.5)]]));
    expect(file.problems).toEqual([]);
    expect(file.lengthU).toBe(20500);
    expect(file.widthU).toBe(8125);
    expect(file.paths).toEqual([
      [
        [2001, 3000, 3501, 3000, 3501, 5000, 2001, 5000],
        [2500, 3500, 3000, 3500, 3000, 4000, 2500, 4000],
      ],
    ]);
  });

  it('reports a C command, a number with two decimals and a <script>', () => {
    const svg = cuttingSvg(20, 8, [
      'M10.000 2.000L12.000 2.000L12.000 4.00Z',
      'M5.000 2.000L6.000 2.000C6.000 3.000 5.000 3.000 5.000 2.000Z',
    ]).replace('</svg>', '<script>alert(1)</script></svg>');
    const report = checkCutSvg(svg, RULES);
    expect(report.ok).toBe(false);
    expect(report.formatProblems).toEqual(
      expect.arrayContaining([
        'a number is not written with exactly three decimals (1×, first "4.00")',
        'command C is not allowed (only absolute M, L, Z) (1×, first in path 2)',
        '<script> is not allowed',
      ]),
    );
  });

  it('reports relative commands, paths outside the group, other elements and a viewBox not at the origin', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="1.000 0.000 20.000 8.000">' +
      '<style>path{fill:red}</style><path d="M1.000 1.000L2.000 1.000L2.000 2.000Z" fill="#000" fill-rule="evenodd"/>' +
      '<g id="cutouts"><path d="M5.000 5.000l1.000 0.000L6.000 6.000Z" fill="#000" fill-rule="nonzero"/>' +
      '<circle cx="1" cy="1" r="1"/><use href="#x"/></g></svg>';
    const problems = parseCutSvg(svg).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'the viewBox "1.000 0.000 20.000 8.000" is not "0.000 0.000 L W" with three decimals',
        '<style> is not allowed',
        'a <path> lies outside <g id="cutouts">',
        'command l is not allowed (only absolute M, L, Z) (1×, first in path 1)',
        'a <path> is not fill-rule="evenodd"',
        '<circle> is not part of the cutting format',
        '<use> is not allowed',
        'attribute href is not allowed',
      ]),
    );
  });

  it('reports a ring left open, coordinates without their own command and a missing group', () => {
    const open = parseCutSvg(cuttingSvg(20, 8, ['M1.000 1.000L2.000 1.000 2.000 2.000']));
    expect(open.problems).toEqual([
      'a coordinate pair has no command letter of its own (1×, first in path 1)',
      'a ring is not closed with Z (1×, first in path 1)',
    ]);
    expect(open.paths).toEqual([[[1000, 1000, 2000, 1000, 2000, 2000]]]);
    const bare = parseCutSvg('<svg viewBox="0.000 0.000 20.000 8.000"></svg>');
    expect(bare.problems).toEqual(['the file holds 0 <g id="cutouts"> groups, not one']);
  });

  it('fails a file whose viewBox cannot be read, without throwing', () => {
    const report = checkCutSvg('<svg><g id="cutouts"></g></svg>', RULES);
    expect(report.ok).toBe(false);
    expect(report.formatProblems).toEqual(['the <svg> has no viewBox']);
  });
});
