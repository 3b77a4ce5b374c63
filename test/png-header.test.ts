import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/config.ts';
import { inspectPngHeader } from '../core/submissions/png-header.ts';
import { corpusDir, evilPngs, hasCorpus } from './helpers/corpus.ts';

const check = (bytes: Uint8Array) => {
  const result = inspectPngHeader(bytes, defaultConfig.image);
  return result.ok ? 'ACCEPTED' : `${result.error.status} ${result.error.code}`;
};

const acceptable = (record: { expect: string; alsoAcceptable?: string | string[] | null }) =>
  [record.expect, ...[record.alsoAcceptable ?? []].flat()].flatMap((answer) =>
    // A bare INVALID_FILE may be answered before decoding as a 400 too.
    answer === 'INVALID_FILE' ? ['INVALID_FILE', '400 INVALID_FILE'] : [answer],
  );

describe.skipIf(!hasCorpus)('PNG checks without decoding, over the shared corpus', () => {
  it('refuses every corrupted PngSuite file (x*) whose fault is in the header or chunk structure', () => {
    // xcsn0g01 has a bad IDAT checksum only (decoders accept it); xdtn0g01 lacks IDAT but is
    // 32x32, so IMAGE_TOO_SMALL rightly comes first in the contract's order.
    const beyondHeader = new Set(['xcsn0g01.png', 'xdtn0g01.png']);
    const structural = readdirSync(join(corpusDir, 'pngsuite')).filter(
      (f) => f.startsWith('x') && f.endsWith('.png') && !beyondHeader.has(f),
    );
    expect(structural.length).toBeGreaterThan(10);
    const wrong = structural
      .map((file) => [file, check(readFileSync(join(corpusDir, 'pngsuite', file)))])
      .filter(([, answer]) => answer !== '400 INVALID_FILE');
    expect(wrong).toEqual([]);
  });

  it('answers IMAGE_TOO_SMALL for the small valid PngSuite images and accepts the 256x256 logo', () => {
    const files = readdirSync(join(corpusDir, 'pngsuite')).filter((f) => /^[a-w].*\.png$/.test(f));
    const wrong = files
      .map((file) => [file, check(readFileSync(join(corpusDir, 'pngsuite', file)))])
      .filter(([, answer]) => answer !== '400 IMAGE_TOO_SMALL');
    expect(wrong).toEqual([]);
    expect(check(readFileSync(join(corpusDir, 'pngsuite', 'PngSuite.png')))).toBe('ACCEPTED');
  });

  it('gives every crafted header-stage file its expected answer and passes every pipeline-stage file', () => {
    const { dir, records } = evilPngs();
    const checked = records.filter((r) => r.stage === 'header' || r.stage === 'pipeline');
    expect(checked.length).toBeGreaterThan(40);
    const wrong = checked
      .map((r) => ({ file: r.file, answer: check(readFileSync(join(dir, r.file))), allowed: acceptable(r) }))
      .filter((r) => !r.allowed.includes(r.answer));
    expect(wrong).toEqual([]);
  });

  it('lets decode-stage files on to the decoder or refuses them early only as INVALID_FILE', () => {
    const { dir, records } = evilPngs();
    const wrong = records
      .filter((r) => r.stage === 'decode')
      .map((r) => ({ file: r.file, answer: check(readFileSync(join(dir, r.file))), allowed: acceptable(r) }))
      .filter((r) => r.answer !== 'ACCEPTED' && !r.allowed.includes(r.answer));
    expect(wrong).toEqual([]);
  });
});
