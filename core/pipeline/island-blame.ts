import type { Finding } from '../contract/finding.ts';
import { finding, type FindingContext, type Location } from './findings.ts';

/**
 * Narrow metal the engine cannot fix right where it bridged an island is the bridge's doing (an
 * island in a tight opening leaves no room for a bar that meets the floor), not a neck the agent
 * drew: those islands are refused as TRAPPED_ISLAND, for the agent to join, and no longer counted
 * as bridged. Other NECK_TOO_THIN places stay as they are.
 */
export function blameBridges(
  warnings: readonly Finding[],
  errors: readonly Finding[],
  bridgeMm: number,
  ctx: FindingContext,
): { warnings: Finding[]; errors: Finding[] } {
  const bridged = warnings.find((w) => w.code === 'ISLAND_BRIDGED')?.locations ?? [];
  const neck = errors.find((e) => e.code === 'NECK_TOO_THIN');
  if (bridged.length === 0 || !neck?.locations) return { warnings: [...warnings], errors: [...errors] };
  const near = (place: Location, island: Location) =>
    Math.hypot(place.x - island.x, place.y - island.y) <= place.r + island.r + bridgeMm / 2;
  const stuck = bridged.filter((island) => neck.locations!.some((place) => near(place, island)));
  if (stuck.length === 0) return { warnings: [...warnings], errors: [...errors] };
  const necks = neck.locations.filter((place) => !stuck.some((island) => near(place, island)));
  const joined = bridged.filter((island) => !stuck.includes(island));
  const outErrors: Finding[] = [];
  for (const e of errors) {
    if (e !== neck) outErrors.push(e);
    else if (necks.length > 0)
      outErrors.push(finding('NECK_TOO_THIN', { count: necks.length }, ctx, { locations: necks }));
  }
  outErrors.push(finding('TRAPPED_ISLAND', { count: stuck.length }, ctx, { locations: stuck }));
  const outWarnings = warnings.flatMap((w) =>
    w.code !== 'ISLAND_BRIDGED'
      ? [w]
      : joined.length > 0
        ? [finding('ISLAND_BRIDGED', { count: joined.length, bridgeMm }, ctx, { locations: joined })]
        : [],
  );
  return { warnings: outWarnings, errors: outErrors };
}
