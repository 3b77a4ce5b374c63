import { describe, expect, it } from 'vitest';
import { finding } from '../../../core/pipeline/findings/wording.ts';

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

describe('TRACE_REJECTED wording', () => {
  it('asks for solid shapes only when nothing usable was left to trace', () => {
    const { message, agent_instruction } = finding('TRACE_REJECTED', {}, ctx);
    expect(message).toBe('The design could not be traced into a manufacturable shape.');
    expect(agent_instruction).toContain('solid black shapes on white with clear openings');
  });

  it("words contours that crossed as the tracing's fault, with a change the drawing does not already have", () => {
    const { message, agent_instruction } = finding('TRACE_REJECTED', { cause: 'crossing', count: 3 }, ctx);
    expect(message).toBe(
      'The traced outlines crossed or touched at 3 places and could not be made into a cutting file there. ' +
        "This is a fault of the service's tracing, not a rule the drawing breaks.",
    );
    expect(agent_instruction).not.toContain('solid black shapes');
    expect(agent_instruction).toContain('round off the sharpest corners and points there');
  });
});
