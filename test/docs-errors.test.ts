import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../core/errors.ts';

const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');

/** Every catalogue code has an underscore, so any UPPER_SNAKE word in the page claims to be one. */
const CODE_LIKE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

describe('docs/errors.md', () => {
  it('has one section per catalogue code, in catalogue order', () => {
    const headings = [...doc.matchAll(/^### `([A-Z0-9_]+)`$/gm)].map((m) => m[1]);
    expect(headings).toEqual([...errorCodes]);
  });

  it('lists every catalogue code in its summary table, in catalogue order', () => {
    const rows = [...doc.matchAll(/^\| `([A-Z0-9_]+)`\s*\|/gm)].map((m) => m[1]);
    expect(rows).toEqual([...errorCodes]);
  });

  it('names no code that is not in the catalogue', () => {
    const catalogue = new Set<string>(errorCodes);
    const unknown = [...new Set(doc.match(CODE_LIKE) ?? [])].filter((word) => !catalogue.has(word));
    expect(unknown).toEqual([]);
  });

  it('says when each code happens and what to do about it', () => {
    const sections = doc.split(/^### /m).slice(1);
    const incomplete = sections
      .filter((section) => !/\*\*When:\*\*/.test(section) || !/\*\*Do:\*\*/.test(section))
      .map((section) => section.split('\n')[0]);
    expect(incomplete).toEqual([]);
  });
});
