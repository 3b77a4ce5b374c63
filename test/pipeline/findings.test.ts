import { describe, expect, it } from 'vitest';
import { finding } from '../../core/pipeline/findings.ts';

const ctx = { minOpeningMm: 0.2, minMetalMm: 0.6, pxPerMm: 10 };

describe('OPENING_REMOVED wording', () => {
  it('names filled sharp points apart from filled openings, with the floor from the configuration', () => {
    const facts = { count: 2, specks: 2, narrow: 0, points: 20, minAreaMm2: 0.224 };
    expect(finding('OPENING_REMOVED', facts, ctx).message).toBe(
      '2 openings were filled: 2 smaller than 0.224 mm² and 0 narrower than 0.2 mm everywhere. ' +
        '20 sharp points of openings, narrower than 0.2 mm, were filled: the laser cannot cut them.',
    );
  });

  it('speaks of one sharp point alone when nothing else was filled', () => {
    const facts = { count: 0, specks: 0, narrow: 0, points: 1, minAreaMm2: 0.5 };
    const { message, agent_instruction } = finding('OPENING_REMOVED', facts, { ...ctx, minOpeningMm: 0.25 });
    expect(message).toBe('1 sharp point of an opening, narrower than 0.25 mm, was filled: the laser cannot cut it.');
    expect(agent_instruction).toContain('up to its sharp points');
  });
});
