import type { Finding } from '../../contract/finding.ts';
import type { Validation } from '../../contract/submission.ts';

/**
 * The warnings that say what the engine changed in the drawing: the picture shows each of their
 * places before and after, MCP attaches the picture for them, the approval page explains them.
 */
const REPAIR_CODES = [
  'ISLAND_BRIDGED',
  'ISLAND_REMOVED',
  'NECK_THICKENED',
  'SPURS_SHAVED',
  'OPENING_REMOVED',
] as const satisfies readonly Finding['code'][];

export const isRepair = (finding: Finding): boolean =>
  finding.severity === 'warning' && (REPAIR_CODES as readonly string[]).includes(finding.code);

/** A finding with the number it carries everywhere: the picture, its legend, MCP's text, the page. */
export interface NumberedFinding {
  /** 1-based, in the order of `validation.errors` then `validation.warnings`. */
  no: number;
  finding: Finding;
}

/** Every finding of a submission, numbered errors first, then warnings. */
export function numberedFindings(validation: Pick<Validation, 'errors' | 'warnings'>): NumberedFinding[] {
  return [...validation.errors, ...validation.warnings].map((finding, i) => ({ no: i + 1, finding }));
}

/** The places of a finding that can be marked on the agent's image (those with `px`). */
export const markedPlaces = (finding: Finding) => (finding.locations ?? []).filter((at) => at.px !== undefined);

/**
 * Whether the picture has something to show that the text alone does not: an error or a repair
 * warning with at least one place in the agent's image. MCP attaches the picture only then, and
 * the approval page links the changes picture only for repairs with places.
 */
export function pictureHelps(
  validation: Pick<Validation, 'errors' | 'warnings'>,
  only: 'errors-or-repairs' | 'repairs',
) {
  const worth =
    only === 'repairs'
      ? validation.warnings.filter(isRepair)
      : [...validation.errors, ...validation.warnings.filter(isRepair)];
  return worth.some((f) => markedPlaces(f).length > 0);
}
