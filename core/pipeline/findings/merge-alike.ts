import type { Finding } from '../../contract/finding.ts';
import { withPlacesAdded } from './facts.ts';
import { findingFacts, narrowestDetails, placesMeet, rewordFinding, type FindingContext } from './wording.ts';
import { MAX_LOCATIONS } from './locate.ts';

/**
 * One finding per code and severity. Every stage now runs on what the earlier ones left, so a
 * defect can be found twice (a pinch by the fill of uncuttable openings on the raster and again by the final check on the
 * cutting file): the first finding keeps its wording and facts, and each later place whose circle
 * overlaps none already named is added, its count raised by one.
 */
export function mergeAlike(findings: readonly Finding[], ctx: FindingContext): Finding[] {
  const merged: Finding[] = [];
  for (const f of findings) {
    const at = merged.findIndex((m) => m.code === f.code && m.severity === f.severity);
    if (at < 0) {
      merged.push(f);
      continue;
    }
    const first = merged[at]!;
    const places = [...(first.locations ?? [])];
    const added = (f.locations ?? []).filter((p) => !places.some((q) => placesMeet(p, q)));
    if (added.length === 0) continue;
    places.push(...added);
    const facts = withPlacesAdded(findingFacts(first) ?? {}, added.length);
    const locations = places.slice(0, MAX_LOCATIONS);
    const details = first.details === undefined ? undefined : narrowestDetails(locations, ctx.minOpeningMm);
    merged[at] = rewordFinding(f.code, facts, ctx, { severity: f.severity, locations, details });
  }
  return merged;
}
