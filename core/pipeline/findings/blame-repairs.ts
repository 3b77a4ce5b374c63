import type { Finding } from '../../contract/finding.ts';
import type { AnyFindingFacts } from './facts.ts';
import {
  narrowestDetails,
  placesMeet,
  REPAIR_REACH_MM,
  rewordFinding,
  type FindingContext,
  type Location,
} from './wording.ts';

/**
 * A refusal found right where the engine changed the drawing is the change's doing, and the agent
 * should be told what it drew, not what the engine made of it:
 * - narrow metal where an island was bridged (an island in a tight opening leaves no room for a bar
 *   that meets the floor) refuses the island: TRAPPED_ISLAND, for the agent to join it;
 * - a narrow opening, or metal still narrow, where a neck was widened means the neck could not be
 *   widened without closing the opening beside it: NECK_TOO_THIN at the neck (and where that neck
 *   lies at a bridged island, the island's, as above).
 * - and a narrow opening where an island refused so was bridged is the bar's doing too: the island's
 *   refusal names the place.
 * The bridged islands and widened necks blamed are no longer reported as changes.
 */
export function blameRepairs(
  warnings: readonly Finding[],
  errors: readonly Finding[],
  bridgeMm: number,
  ctx: FindingContext,
): { warnings: Finding[]; errors: Finding[] } {
  let state = { warnings: [...warnings], errors: [...errors] };
  state = blame(
    state,
    'NECK_THICKENED',
    ['OPENING_TOO_SMALL', 'NECK_TOO_THIN'],
    'NECK_TOO_THIN',
    (n) => ({ count: n }),
    ctx,
  );
  // After the necks: a neck that could not be widened beside a bridge is most often the bridge's
  // own doing (the bar leaves a sliver of metal against a stroke), so it refuses the island.
  const bridged = state.warnings.find((w) => w.code === 'ISLAND_BRIDGED')?.locations ?? [];
  state = blame(state, 'ISLAND_BRIDGED', ['NECK_TOO_THIN'], 'TRAPPED_ISLAND', (n) => ({ count: n, bridgeMm }), ctx);
  // An island refused for its bridge: a narrow opening the bar left beside it is the same place.
  const refused = bridged.filter(
    (at) => !state.warnings.some((w) => w.code === 'ISLAND_BRIDGED' && w.locations?.includes(at)),
  );
  return refused.length > 0 ? absorb(state, 'OPENING_TOO_SMALL', refused, ctx) : state;
}

/** The errors of `code` less their places at `places` (the error goes when none is left). */
function absorb(
  { warnings, errors }: { warnings: Finding[]; errors: Finding[] },
  code: Finding['code'],
  places: readonly Location[],
  ctx: FindingContext,
): { warnings: Finding[]; errors: Finding[] } {
  return { warnings, errors: errors.flatMap((e) => (e.code === code ? withoutPlaces(e, places, ctx) : [e])) };
}

/**
 * Errors of `causes` located at a place a `change` warning names become a `becomes` error at that
 * place; the change warning keeps its other places (or goes).
 */
function blame(
  { warnings, errors }: { warnings: Finding[]; errors: Finding[] },
  change: Finding['code'],
  causes: Finding['code'][],
  becomes: Finding['code'],
  facts: (count: number) => AnyFindingFacts,
  ctx: FindingContext,
): { warnings: Finding[]; errors: Finding[] } {
  const changed = warnings.find((w) => w.code === change)?.locations ?? [];
  if (changed.length === 0) return { warnings, errors };
  const blamed = changed.filter((at) =>
    errors.some((e) => causes.includes(e.code) && e.locations?.some((place) => near(place, at))),
  );
  if (blamed.length === 0) return { warnings, errors };
  const outErrors = errors.flatMap((e) =>
    e.code === becomes ? [] : causes.includes(e.code) ? withoutPlaces(e, blamed, ctx) : [e],
  );
  // One finding of the resulting code: what was there already (less what was blamed) and the blamed places.
  const existing = errors.find((e) => e.code === becomes);
  const kept = (existing?.locations ?? []).filter((place) => !blamed.some((at) => near(place, at)));
  const places = [...kept, ...blamed];
  outErrors.push(placesFinding(becomes, places, ctx, facts(places.length)));
  const left = changed.filter((at) => !blamed.includes(at));
  const outWarnings = warnings.flatMap((w) =>
    w.code !== change
      ? [w]
      : left.length > 0
        ? [rewordFinding(change, facts(left.length), ctx, { locations: left })]
        : [],
  );
  return { warnings: outWarnings, errors: outErrors };
}

/** Whether a finding's place lies at a repair's place, within the repair's reach. */
const near = (place: Location, at: Location): boolean => placesMeet(place, at, REPAIR_REACH_MM);

/** A finding less its places at `places`: itself when none is, one of its code at the rest, or nothing. */
function withoutPlaces(e: Finding, places: readonly Location[], ctx: FindingContext): Finding[] {
  if (!e.locations) return [e];
  const rest = e.locations.filter((place) => !places.some((at) => near(place, at)));
  if (rest.length === e.locations.length) return [e];
  return rest.length > 0 ? [placesFinding(e.code, rest, ctx)] : [];
}

/** A refusal of `code` at `places`, worded for their number (with OPENING_TOO_SMALL's `details`). */
function placesFinding(
  code: Finding['code'],
  places: Location[],
  ctx: FindingContext,
  facts: AnyFindingFacts = { count: places.length },
): Finding {
  const details = code === 'OPENING_TOO_SMALL' ? narrowestDetails(places, ctx.minOpeningMm) : undefined;
  return rewordFinding(code, facts, ctx, { locations: places, details });
}
