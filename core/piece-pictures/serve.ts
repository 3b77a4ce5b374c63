import type { Geometry } from '../contract/submission.ts';
import type { CoreDeps } from '../deps.ts';
import { liveLink } from '../handoff/approval.ts';
import { designForAccount } from '../handoff/designs.ts';
import type { Wear } from '../handoff/types.ts';
import type { PictureCache } from './cache.ts';
import { pictureKinds, type PictureKind } from './layout.ts';
import { renderPiecePicture, type StoredPiece } from './piece-picture.ts';
import { pieceShape } from './shape.ts';

const isPictureKind = (kind: string): kind is PictureKind => (pictureKinds as readonly string[]).includes(kind);

/** The picture from the cache, or drawn; nothing (and a log line) when the stored file cannot be read. */
async function picture(
  deps: CoreDeps,
  cache: PictureCache,
  key: string,
  piece: StoredPiece,
  kind: PictureKind,
): Promise<Buffer | undefined> {
  return cache.get(key, async () => {
    const drawn = await renderPiecePicture(piece, kind, deps.config.pictures);
    if (drawn.ok) return drawn.png;
    deps.log.warn({ event: 'piece_picture_unreadable', key, reason: drawn.reason });
    return undefined;
  });
}

/**
 * `GET /a/{token}/flat.png` and `/worn.png`: a picture of the submission the link shows; nothing
 * (the site's 404) for unknown, cancelled or expired links, as for the page itself. The token is
 * the only key: it opens exactly what the page shows.
 */
export async function approvalPiecePicture(
  deps: CoreDeps,
  cache: PictureCache,
  token: string,
  kind: PictureKind,
): Promise<Buffer | undefined> {
  if (!isPictureKind(kind)) return undefined;
  const link = await liveLink(deps, token);
  const cutoutsSvg = link?.submission.cutoutsSvg;
  if (!link || !cutoutsSvg) return undefined;
  const { job, submission } = link;
  const wear: Wear = { sizeInput: job.sizeInput as Wear['sizeInput'], gapMm: job.gapMm, thicknessMm: job.thicknessMm };
  const shape = pieceShape(job.productType, submission.geometry as Geometry, wear);
  const key = `submission:${job.id}:${submission.no}:${kind}`;
  return picture(deps, cache, key, { cutoutsSvg, shape }, kind);
}

/** `GET /designs/{designId}/flat.png` and `/worn.png`: a picture of the account's own design; nothing for anyone else's. */
export async function designPiecePicture(
  deps: CoreDeps,
  cache: PictureCache,
  designId: string,
  accountId: string,
  kind: PictureKind,
): Promise<Buffer | undefined> {
  if (!isPictureKind(kind)) return undefined;
  const design = await designForAccount(deps, designId, accountId);
  if (!design) return undefined;
  const shape = pieceShape(design.productType, design.geometry, design.wear);
  return picture(deps, cache, `design:${design.id}:${kind}`, { cutoutsSvg: design.cutoutsSvg, shape }, kind);
}
