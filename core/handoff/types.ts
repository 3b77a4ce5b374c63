import type { ProductType } from '../config.ts';
import type { Price } from '../contract/job.ts';
import type { Geometry } from '../contract/submission.ts';
import type { SizeInput } from '../contract/create-job.ts';
import type { WornSize } from '../jobs/worn-size.ts';
import type { EngineNote } from '../submissions/read-picture.ts';
import type { DeclineReason } from './decline-reason.ts';
import type { PictureKind, PictureSize } from '../piece-pictures/layout.ts';

/** The pixel sizes of the piece's pictures (`flat.png`, `worn.png`), for the page's `<img>` tags. */
export type PiecePictureSizes = Record<PictureKind, PictureSize>;

/** How the piece is worn: the size the agent asked for, the cuff's gap, the metal's thickness. */
export interface Wear {
  sizeInput: SizeInput;
  gapMm: number;
  thicknessMm: number;
}

/** What the approval page shows for a live link. */
export interface ApprovalView {
  token: string;
  status: 'pending' | 'approved' | 'declined';
  productType: ProductType;
  /** The submission on the page: the job's current ready one (the approved one once approved). */
  submissionNo: number;
  geometry: Geometry;
  price: Price;
  /** Milliseconds since the epoch: when the link stops working. */
  expiresAt: number;
  wear: Wear;
  /** Set once declined: the person's reason, null when they gave none. */
  declineReason?: DeclineReason | null;
  /** The size in a person's terms (wrist or ring size), from `wear` and the sizing rules. */
  worn: WornSize;
  pictures: PiecePictureSizes;
  /** Set once approved: who approved it, to send that person to their design. */
  approvedBy?: { accountId: string; designId: string };
  /** The submission's warnings, numbered as the findings picture numbers them. */
  notes: EngineNote[];
  /** Whether `/a/{token}/changes.png` has repaired places to show before and after. */
  changesPicture: boolean;
}

/** A design in a person's account. */
export interface DesignView {
  id: string;
  accountId: string;
  jobId: string;
  submissionNo: number;
  productType: ProductType;
  geometry: Geometry;
  price: Price;
  cutoutsSvg: string;
  wear: Wear;
  worn: WornSize;
  pictures: PiecePictureSizes;
  createdAt: number;
}

/** A design as the home page lists it. */
export type DesignSummary = Pick<DesignView, 'id' | 'productType' | 'geometry' | 'price' | 'worn' | 'createdAt'>;

export interface SignedIn {
  accountId: string;
  email: string;
  /** The session cookie's value: shown once, stored only as a hash. */
  sessionToken: string;
}

export interface SessionAccount {
  accountId: string;
  email: string;
}

/** Name of the site's session cookie (HttpOnly, SameSite=Lax, Secure on https). */
export const SESSION_COOKIE = 'jds';
