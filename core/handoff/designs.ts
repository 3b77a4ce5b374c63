import { and, desc, eq } from 'drizzle-orm';
import { designs } from '../../db/schema.ts';
import type { SizeInput } from '../contract/create-job.ts';
import type { Price } from '../contract/job.ts';
import type { Geometry } from '../contract/submission.ts';
import type { CoreDeps } from '../deps.ts';
import type { DesignSummary, DesignView, Wear } from './types.ts';
import { wornSize } from '../jobs/worn-size.ts';
import { wearOf } from './wear.ts';

type DesignRow = typeof designs.$inferSelect;

/** The most designs the home page lists, newest first. */
const LISTED_DESIGNS = 100;

/** How a design is worn; a design from before this was kept reads its blank length and today's product. */
function designWear(
  row: Pick<DesignRow, 'sizeInput' | 'gapMm' | 'thicknessMm' | 'geometry' | 'productType'>,
  deps: CoreDeps,
): Wear {
  return {
    sizeInput: (row.sizeInput as SizeInput | null) ?? { lengthMm: (row.geometry as Geometry).lengthMm },
    gapMm: row.gapMm ?? deps.config.products[row.productType].gapMm,
    thicknessMm: row.thicknessMm ?? deps.config.manufacturing.thicknessMm,
  };
}

/** A person's design, for its owner only. */
export async function designForAccount(
  deps: CoreDeps,
  designId: string,
  accountId: string,
): Promise<DesignView | undefined> {
  const [row] = await deps.db.orm
    .select()
    .from(designs)
    .where(and(eq(designs.id, designId), eq(designs.accountId, accountId)));
  if (!row) return undefined;
  return {
    id: row.id,
    accountId: row.accountId,
    jobId: row.jobId,
    submissionNo: row.submissionNo,
    productType: row.productType,
    geometry: row.geometry as Geometry,
    price: row.price as Price,
    cutoutsSvg: row.cutoutsSvg,
    ...wearOf(designWear(row, deps), row.productType, row.geometry as Geometry, deps),
    createdAt: row.createdAt,
  };
}

/** The home page's list: a person's designs, newest first, without their files. */
export async function designsOfAccount(deps: CoreDeps, accountId: string): Promise<DesignSummary[]> {
  const rows = await deps.db.orm
    .select({
      id: designs.id,
      productType: designs.productType,
      geometry: designs.geometry,
      price: designs.price,
      sizeInput: designs.sizeInput,
      gapMm: designs.gapMm,
      thicknessMm: designs.thicknessMm,
      createdAt: designs.createdAt,
    })
    .from(designs)
    .where(eq(designs.accountId, accountId))
    .orderBy(desc(designs.createdAt), desc(designs.id))
    .limit(LISTED_DESIGNS);
  return rows.map((row) => ({
    id: row.id,
    productType: row.productType,
    geometry: row.geometry as Geometry,
    price: row.price as Price,
    worn: wornSize(
      { productType: row.productType, lengthMm: (row.geometry as Geometry).lengthMm, ...designWear(row, deps) },
      deps.config,
    ),
    createdAt: row.createdAt,
  }));
}
