import { describe, expect, it } from 'vitest';
import { buildConfig, ConfigError, defaultConfig } from '../core/config.ts';
import { declineChoices, parseDeclineReason, storedDeclineReason } from '../core/handoff/decline-reason.ts';

const MAX = defaultConfig.site.declineReasonMaxChars;
const parse = (input: { choice?: string; text?: string }, max = MAX) => parseDeclineReason(input, max);

describe('parseDeclineReason', () => {
  it('reads neither a choice nor any text as no reason at all', () => {
    expect(parse({})).toEqual({ ok: true, value: null });
    expect(parse({ choice: '', text: '' })).toEqual({ ok: true, value: null });
    expect(parse({ choice: ' ', text: ' \r\n\t \u0000 ' })).toEqual({ ok: true, value: null });
  });

  it('takes each listed choice alone, the text alone, or both', () => {
    for (const choice of declineChoices) expect(parse({ choice })).toEqual({ ok: true, value: { choice, text: null } });
    expect(parse({ text: 'קטן מדי' })).toEqual({ ok: true, value: { choice: null, text: 'קטן מדי' } });
    expect(parse({ choice: 'size', text: 'too wide' })).toEqual({
      ok: true,
      value: { choice: 'size', text: 'too wide' },
    });
  });

  it('refuses an unknown choice instead of dropping it', () => {
    for (const choice of ['cheap', 'PRICE', '<script>', 'price,size']) {
      expect(parse({ choice, text: 'words' })).toEqual({ ok: false, error: { code: 'DECLINE_CHOICE_UNKNOWN' } });
    }
  });

  it('keeps line breaks as one \\n each, removes other control characters and trims, and keeps markup as text', () => {
    const text = '  <b>first</b>\r\nsecond\rthird\nfourth\u0007\u001b[31m\u0085\u007f\tend  \r\n';
    expect(parse({ text })).toEqual({
      ok: true,
      value: { choice: null, text: '<b>first</b>\nsecond\nthird\nfourth[31mend' },
    });
  });

  it('counts characters as a person does (a CRLF is one, an emoji is one) and refuses one over the limit', () => {
    const exactly = `${'א'.repeat(5)}\r\n${'😀'.repeat(4)}`;
    expect(parse({ text: exactly }, 10)).toEqual({ ok: true, value: { choice: null, text: `אאאאא\n😀😀😀😀` } });
    expect(parse({ text: `${exactly}x` }, 10)).toEqual({
      ok: false,
      error: { code: 'DECLINE_TEXT_TOO_LONG', maxChars: 10 },
    });
    // White space around the words does not count against the limit.
    expect(parse({ text: `   ${'b'.repeat(10)}   ` }, 10).ok).toBe(true);
  });

  it('refuses the choice before the length, and never truncates', () => {
    expect(parse({ choice: 'nope', text: 'x'.repeat(MAX + 1) })).toEqual({
      ok: false,
      error: { code: 'DECLINE_CHOICE_UNKNOWN' },
    });
    expect(parse({ text: 'x'.repeat(MAX + 1) })).toEqual({
      ok: false,
      error: { code: 'DECLINE_TEXT_TOO_LONG', maxChars: MAX },
    });
  });
});

describe('storedDeclineReason', () => {
  it('reads a stored reason back, and anything else as none', () => {
    expect(storedDeclineReason({ choice: 'price', text: 'x' })).toEqual({ choice: 'price', text: 'x' });
    expect(storedDeclineReason({ choice: null, text: 'x' })).toEqual({ choice: null, text: 'x' });
    expect(storedDeclineReason({ choice: 'gone', text: 5 })).toBeNull();
    for (const value of [null, undefined, 'price', 3, []]) expect(storedDeclineReason(value)).toBeNull();
  });
});

describe('site.declineReasonMaxChars', () => {
  it('is 500 unless configured, a whole number from 1 to 1000', () => {
    expect(MAX).toBe(500);
    expect(buildConfig({ site: { declineReasonMaxChars: 40 } }).site.declineReasonMaxChars).toBe(40);
    for (const bad of [0, 1001, 2.5, '500']) {
      expect(() => buildConfig({ site: { declineReasonMaxChars: bad } })).toThrow(ConfigError);
    }
  });
});
