/**
 * A label as `test/fixtures/real-artwork/labels.json` stores it: the verdict, the defects counted
 * by kind and verdict, the first places in full (rounded) for a reader, and the reference's
 * figures. `sameVerdict` is what the harness compares with a label recomputed now, so a stored
 * label cannot go stale unseen.
 */
import type { ArtworkLabel } from './index.ts';

export interface StoredLabel {
  kind: string;
  job: { productType: string; lengthMm: number; widthMm: number };
  label: ArtworkLabel['label'];
  borderline: boolean;
  answer: ArtworkLabel['answer'];
  /** "kind repairable|unrepairable" → how many. */
  defects: Record<string, number>;
  places: { kind: string; x: number; y: number; widthMm: number | null; why: string; borderline?: string }[];
  reference: Record<string, unknown>;
}

/** How many places a stored label lists in full. */
const PLACES = 20;

const round = (value: number, digits = 3): number => Number(value.toFixed(digits));

export function storedLabel(design: { kind: string; job: StoredLabel['job'] }, label: ArtworkLabel): StoredLabel {
  const defects: Record<string, number> = {};
  for (const d of label.defects) {
    const key = `${d.kind} ${d.repairable ? 'repairable' : 'unrepairable'}${d.borderline ? ` borderline-${d.borderline}` : ''}`;
    defects[key] = (defects[key] ?? 0) + 1;
  }
  const { pixelMm, ...figures } = label.reference;
  return {
    kind: design.kind,
    job: design.job,
    label: label.label,
    borderline: label.borderline,
    answer: label.answer,
    defects: Object.fromEntries(Object.entries(defects).sort()),
    places: label.defects.slice(0, PLACES).map((d) => ({
      kind: d.kind,
      x: round(d.x),
      y: round(d.y),
      widthMm: d.widthMm === null ? null : round(d.widthMm),
      why: d.why,
      ...(d.borderline ? { borderline: d.borderline } : {}),
    })),
    reference: {
      ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, typeof v === 'number' ? round(v, 4) : v])),
      pixelMm: { x: round(pixelMm.x, 5), y: round(pixelMm.y, 5) },
    },
  };
}

/** What must not change between the stored label and one recomputed now. */
export function sameVerdict(a: StoredLabel, b: StoredLabel): boolean {
  return (
    a.label === b.label && a.borderline === b.borderline && JSON.stringify(a.defects) === JSON.stringify(b.defects)
  );
}
