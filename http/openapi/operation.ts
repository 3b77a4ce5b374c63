import type { Config } from '../../core/index.ts';
import { parameterRef, refusal, type OpenApiObject } from './responses.ts';

type Tag = 'Discovery' | 'Jobs' | 'Submissions' | 'Approval page';

/**
 * How the OpenAPI document states one endpoint. Each route carries its own (`ApiRoute.openapi`);
 * the method and path are the route's, so they cannot disagree with what the app serves.
 */
export interface Operation {
  /** The name of the route's export in http/routes/. */
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  security: OpenApiObject[];
  parameters?: OpenApiObject[];
  requestBody?: OpenApiObject;
  responses: Record<string, OpenApiObject>;
}

/**
 * An operation as a function of the live configuration: every number its text states is read
 * from `config`, so a `CONFIG_FILE` that moves a limit moves the document with it.
 */
export type Describe = (config: Config) => Operation;

export const withSecret = [{ jobSecret: [] }];
export const open: OpenApiObject[] = [];
export const jobPath = [parameterRef('JobId')];
export const submissionPath = [parameterRef('JobId'), parameterRef('SubmissionNo')];
export const tokenPath = [parameterRef('ApprovalToken')];

/** The 404 of a route behind the job secret; `more` names its own further cases. */
export const noSuchJob = (more = ''): OpenApiObject =>
  refusal(404, ['NOT_FOUND'], `Unknown job, wrong or missing secret: "No such job."${more}`);

/** A whole count as the contract writes it: 6,000,000. */
export const wholeNumber = (value: number): string => value.toLocaleString('en');

/** A share as a percentage without binary noise: 0.05 reads 5. */
export const percent = (share: number): number => Number((share * 100).toFixed(6));

/** Pixels in megapixels without binary noise: 24000000 reads 24. */
export const megapixels = (pixels: number): number => Number((pixels / 1e6).toFixed(6));
