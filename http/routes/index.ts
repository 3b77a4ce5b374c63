import { adoptDesign } from './adopt-design.ts';
import { cancelJob } from './cancel-job.ts';
import { createJob } from './create-job.ts';
import { createSubmission } from './create-submission.ts';
import { declineDesign } from './decline-design.ts';
import { getCapabilities } from './get-capabilities.ts';
import { getFindingsPng } from './get-findings-png.ts';
import { getJob } from './get-job.ts';
import { getSubmission } from './get-submission.ts';
import { getCutoutsSvg, getPreviewSvg } from './submission-svg.ts';

/** Every v1 endpoint; the app derives 405 answers and `Allow` headers from this list. */
export const apiRoutes = [
  getCapabilities,
  createJob,
  getJob,
  cancelJob,
  createSubmission,
  getSubmission,
  getCutoutsSvg,
  getPreviewSvg,
  getFindingsPng,
  adoptDesign,
  declineDesign,
];
