import { createHash } from 'node:crypto';
import type { Finding } from '../../core/contract/finding.ts';
import type { Pipeline, PipelineInput, PipelineOutcome } from '../../core/pipeline/types.ts';

export type Script = 'ready' | 'invalid' | 'unavailable' | 'failed' | 'throws';

/**
 * Stands in for the image pipeline in the REST flow tests. It does NOT analyse images: each
 * upload's outcome is whatever the test scripted for those bytes (ready by default), so these
 * tests exercise the job, quota and idempotency machinery around the pipeline, nothing more.
 */
export class ScriptedPipeline {
  private readonly scripts = new Map<string, Script>();
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;
  runs = 0;

  /** Makes the pipeline answer `script` for these exact bytes. */
  script(png: Uint8Array, script: Script): void {
    this.scripts.set(sha(png), script);
  }

  /** Holds every run until the returned function is called. */
  hold(): () => void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
    return () => {
      this.openGate?.();
      this.gate = undefined;
    };
  }

  readonly run: Pipeline = async (input) => {
    this.runs += 1;
    if (this.gate) await this.gate;
    return outcome(this.scripts.get(sha(input.png)) ?? 'ready', input);
  };
}

const sha = (png: Uint8Array) => createHash('sha256').update(png).digest('hex');

export const scriptedError: Finding = {
  code: 'FEATURES_TOO_FINE',
  severity: 'error',
  message: 'Scripted failure (test stand-in).',
  agent_instruction: 'Scripted instruction (test stand-in).',
};

export const scriptedWarning: Finding = {
  code: 'SPURS_SHAVED',
  severity: 'warning',
  message: 'Scripted warning (test stand-in).',
  agent_instruction: 'Nothing to do (test stand-in).',
};

function outcome(script: Script, input: PipelineInput): PipelineOutcome {
  switch (script) {
    case 'throws':
      throw new Error('scripted crash');
    case 'unavailable':
      return { kind: 'failed', code: 'VECTORIZER_UNAVAILABLE', reason: 'scripted' };
    case 'failed':
      return { kind: 'failed', code: 'PROCESSING_FAILED', reason: 'scripted' };
    case 'invalid':
      return { kind: 'analysed', errors: [scriptedError], warnings: [scriptedWarning] };
    case 'ready': {
      const { lengthMm: L, widthMm: W } = input;
      return {
        kind: 'analysed',
        errors: [],
        warnings: [scriptedWarning],
        product: {
          geometry: {
            lengthMm: L,
            widthMm: W,
            drawnRatio: L / W,
            stretch: 1,
            cuts: 1,
            openAreaPct: 4,
            estWeightGrams: 30,
          },
          cutoutsSvg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${L} ${W}"><g id="cutouts"><path d="M1.000 1.000 L2.000 1.000 L2.000 2.000 Z" fill="#000"/></g></svg>`,
          previewSvg: `<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 ${L} ${W}"><title>preview</title><path fill="#222" fill-rule="evenodd" d="M0 0 H${L} V${W} H0 Z"/></svg>`,
        },
      };
    }
  }
}
