import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The team's shared robustness corpus, beside the repository (as CI lays it out). */
export const corpusDir = resolve(import.meta.dirname, '../../../shared/corpus');
export const hasCorpus = existsSync(join(corpusDir, 'pngsuite'));

export interface EvilRecord {
  file: string;
  bytes: number;
  expect: string;
  alsoAcceptable?: string | string[] | null;
  stage: 'size' | 'header' | 'decode' | 'pipeline';
}

let generated: { dir: string; records: EvilRecord[] } | undefined;

/** Runs the corpus generator once per test process and returns its index. */
export function evilPngs(): { dir: string; records: EvilRecord[] } {
  if (!generated) {
    const dir = mkdtempSync(join(tmpdir(), 'evil-pngs-'));
    execFileSync(process.execPath, [join(corpusDir, 'make-evil-pngs.mjs'), dir], { stdio: 'ignore' });
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as EvilRecord[] | { files: EvilRecord[] };
    generated = { dir, records: Array.isArray(index) ? index : index.files };
  }
  return generated;
}
