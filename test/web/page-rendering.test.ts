import { describe, expect, it } from 'vitest';
import type { ApprovalView, DesignView } from '../../core/handoff/types.ts';
import { formatPrice } from '../../web/format.ts';
import { renderApprovalPage } from '../../web/pages/approval.ts';
import { renderDesignPage } from '../../web/pages/design.ts';
import { safeNext } from '../../web/request.ts';
import { he } from '../../web/strings.ts';
import { expectHebrewPage, expectNoInjectedMarkup, HOSTILE, picturesOf } from '../helpers/page-checks.ts';

const geometry = {
  lengthMm: 172.3,
  widthMm: 20,
  drawnRatio: 8.6,
  stretch: 1,
  cuts: 3,
  openAreaPct: 20,
  estWeightGrams: 31.6,
};
const price = { currency: 'ILS', base: 320, shipping: 30, total: 350, vatIncluded: true, note: 'n' };

function approvalView(overrides: Partial<ApprovalView> = {}): ApprovalView {
  return {
    token: 'abcDEF234xyz',
    status: 'pending',
    productType: 'bracelet',
    submissionNo: 3,
    geometry,
    price,
    expiresAt: Date.UTC(2026, 10, 29, 12, 0, 0),
    wear: { sizeInput: { wristMm: 160 }, gapMm: 25, thicknessMm: 1.5 },
    worn: { product: 'bracelet', wristMm: 160, fit: 'comfort', gapMm: 25, fromLength: false },
    pictures: { flat: { width: 2000, height: 420 }, worn: { width: 1600, height: 1403 } },
    notes: [],
    changesPicture: false,
    ...overrides,
  };
}

describe('page rendering (hand-made views)', () => {
  const viewer = { accountId: 'acc-1', email: `${HOSTILE}@example.com` };

  it('a pending approval shows the piece, the price and both forms, in Hebrew, right to left', () => {
    const html = renderApprovalPage({
      view: approvalView(),
      viewer: undefined,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expectHebrewPage(html);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain(he.approval.pendingHeading);
    expect(html).toContain('צמיד');
    expect(html).toContain('172.3 × 20 מ״מ');
    expect(html).toContain('1.5 מ״מ');
    expect(html).toContain(formatPrice(320, 'ILS'));
    expect(html).toContain(formatPrice(30, 'ILS'));
    expect(html).toContain(formatPrice(350, 'ILS'));
    expect(formatPrice(350, 'ILS')).toMatch(/350.*₪/);
    expect(html).toContain('מספר 3');
    // Approve goes to the one confirmation, for the version on the page; it is never a post from here.
    expect(html).toContain('href="/a/abcDEF234xyz/approve?n=3"');
    expect(html).not.toContain('/adopt"');
    expect(html).toContain('<form class="decline-form" method="post" action="/a/abcDEF234xyz/decline">');
    expect(html).toContain(he.approval.approveNeedsAccount);
    expect(html).toContain('href="/signin?next=%2Fa%2FabcDEF234xyz"');
  });

  it('shows the piece as worn and flat: images the link serves, sized, with Hebrew alt texts that give the dimensions', () => {
    const view = approvalView();
    const html = renderApprovalPage({ view, viewer: undefined, thicknessMm: 1.5, declineReasonMaxChars: 500 });
    expectNoInjectedMarkup(html);
    expect(html).not.toContain('data:image');
    expect(picturesOf(html)).toEqual([
      {
        href: '/a/abcDEF234xyz/worn.png',
        src: '/a/abcDEF234xyz/worn.png',
        width: 1600,
        height: 1403,
        alt: he.pictures.worn.bracelet.alt('172.3 מ״מ', '20 מ״מ', '25 מ״מ'),
      },
      {
        href: '/a/abcDEF234xyz/flat.png',
        src: '/a/abcDEF234xyz/flat.png',
        width: 2000,
        height: 420,
        alt: he.pictures.flat.alt('172.3 × 20 מ״מ'),
      },
    ]);
    expect(html).toContain(he.pictures.worn.bracelet.caption('25 מ״מ'));
    expect(html).toContain(he.pictures.enlarge);
    // The pictures come first, then what the page says about the piece.
    expect(html.indexOf('pictures-heading')).toBeLessThan(html.indexOf('facts-heading'));
  });

  it('a ring is shown closed, and a hostile token stays inside its picture addresses', () => {
    const html = renderApprovalPage({
      view: approvalView({
        productType: 'ring',
        token: HOSTILE,
        wear: { sizeInput: { usRingSize: 7 }, gapMm: 0, thicknessMm: 1.5 },
        worn: { product: 'ring', usRingSize: 7, innerDiameterMm: 17.3, fromLength: false },
      }),
      viewer: undefined,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expectNoInjectedMarkup(html);
    const [worn, flat] = picturesOf(html);
    expect(worn!.src).toBe(`/a/${encodeURIComponent(HOSTILE)}/worn.png`);
    expect(flat!.src).toBe(`/a/${encodeURIComponent(HOSTILE)}/flat.png`);
    expect(worn!.alt).toBe(he.pictures.worn.ring.alt('172.3 מ״מ', '20 מ״מ'));
    expect(html).toContain(he.pictures.worn.ring.caption);
  });

  it('a ring reads טבעת and a non-integer price keeps its agorot', () => {
    const html = renderApprovalPage({
      view: approvalView({ productType: 'ring', price: { ...price, base: 219.5, total: 249.5 } }),
      viewer: undefined,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expect(html).toContain('טבעת');
    expect(html).toContain(formatPrice(219.5, 'ILS'));
    expect(formatPrice(219.5, 'ILS')).toContain('219.50');
  });

  it('an approval approved by the viewer links to their design and offers no buttons', () => {
    const view = approvalView({ status: 'approved', approvedBy: { accountId: 'acc-1', designId: 'd-1' } });
    const html = renderApprovalPage({ view, viewer, thicknessMm: 1.5, declineReasonMaxChars: 500 });
    expect(html).toContain(he.approval.approvedHeading);
    expect(html).toContain(he.approval.approvedByYou);
    expect(html).toContain('href="/designs/d-1"');
    expect(html).not.toContain('<form method="post" action="/api');
    expectNoInjectedMarkup(html);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;@example.com');
  });

  it('an approval approved by someone else says so without a link', () => {
    const view = approvalView({ status: 'approved', approvedBy: { accountId: 'acc-2', designId: 'd-2' } });
    const html = renderApprovalPage({ view, viewer, thicknessMm: 1.5, declineReasonMaxChars: 500 });
    expect(html).toContain(he.approval.approvedBySomeone);
    expect(html).not.toContain('/designs/');
    expect(html).not.toContain('<form method="post" action="/api');
  });

  it('a declined approval says the agent may send a new version, without buttons', () => {
    const html = renderApprovalPage({
      view: approvalView({ status: 'declined' }),
      viewer,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expect(html).toContain(he.approval.declinedHeading);
    expect(html).toContain(he.approval.declinedBody);
    expect(html).not.toContain('<form method="post" action="/api');
  });

  it.each([
    ['SUBMISSION_SUPERSEDED', he.approval.errors.SUBMISSION_SUPERSEDED],
    ['ALREADY_APPROVED', he.approval.errors.ALREADY_APPROVED],
    ['RATE_LIMITED', he.approval.errors.RATE_LIMITED],
    ['AUTH_UNAVAILABLE', he.approval.errors.AUTH_UNAVAILABLE],
    ['INVALID_REQUEST', he.approval.errors.other],
    [HOSTILE, he.approval.errors.other],
    ['other', he.approval.errors.other],
  ])('?e=%s shows its Hebrew explanation', (code, text) => {
    const html = renderApprovalPage({
      view: approvalView(),
      viewer: undefined,
      errorCode: code,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expect(html).toContain(`<div class="notice error" role="alert"><p>${text}</p></div>`);
    expectNoInjectedMarkup(html);
  });

  it('a design page shows the piece and the download link', () => {
    const design: DesignView = {
      id: 'd-1',
      accountId: 'acc-1',
      jobId: 'j-1',
      submissionNo: 2,
      productType: 'ring',
      geometry,
      price,
      cutoutsSvg: '<svg/>',
      wear: { sizeInput: { usRingSize: 7 }, gapMm: 0, thicknessMm: 1.5 },
      worn: { product: 'ring', usRingSize: 7, innerDiameterMm: 17.3, fromLength: false },
      pictures: { flat: { width: 2000, height: 420 }, worn: { width: 1600, height: 1473 } },
      createdAt: Date.UTC(2026, 10, 22, 12, 0, 0),
    };
    const html = renderDesignPage({ design, viewer, thicknessMm: 1.5 });
    expectHebrewPage(html);
    expect(html).toContain(he.design.heading('טבעת'));
    expect(html).toContain('href="/designs/d-1/cutouts.svg" download');
    expect(picturesOf(html).map(({ src, width, height }) => [src, width, height])).toEqual([
      ['/designs/d-1/worn.png', 1600, 1473],
      ['/designs/d-1/flat.png', 2000, 420],
    ]);
    expect(html).toContain('22 בנובמבר 2026');
    expectNoInjectedMarkup(html);
  });

  it.each([
    ['/a/abc', '/a/abc'],
    ['/designs/x?y=1', '/designs/x?y=1'],
    ['//evil.example/a', undefined],
    ['/\\evil.example', undefined],
    ['https://evil.example/', undefined],
    ['javascript:alert(1)', undefined],
    ['a/b', undefined],
    ['/a b', undefined],
    ['/a\tb', undefined],
    ['/\u3002x', undefined],
    ['/a%E3%80%82x', '/a%E3%80%82x'],
    ['', undefined],
    [undefined, undefined],
  ])('next=%j is accepted as %j', (value, expected) => {
    expect(safeNext(value)).toBe(expected);
  });
});
