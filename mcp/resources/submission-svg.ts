import {
  ResourceNotFoundError,
  ResourceTemplate,
  type McpServer,
  type ResourceLink,
} from '@modelcontextprotocol/server';
import { HOUR, type Core, type SubmissionFile } from '../../core/index.ts';
import type { McpContext } from '../context.ts';

export const name = 'submission-svg';
export const uriTemplate = 'jewellery://jobs/{jobHandle}/submissions/{submissionNo}/{file}';

/** The files of a ready submission, by the name they have in the URI (the REST paths' names). */
const files: Record<string, { file: SubmissionFile; title: string; description: string }> = {
  'cutouts.svg': {
    file: 'cutouts',
    title: 'Cutting file (SVG)',
    description: 'The outline the laser cuts for this submission, in millimetres, exactly as it will be cut.',
  },
  'preview.svg': {
    file: 'preview',
    title: 'Preview (SVG)',
    description: 'A picture of the finished piece for this submission, as the approval page shows it.',
  },
};

export const config = {
  title: 'Submission SVG files',
  description:
    'The cutting file (cutouts.svg) and the preview (preview.svg) of a ready submission, named by the jobHandle that open_job returned and the submission number. submit_design and check_approval link them.',
  mimeType: 'image/svg+xml',
  // A ready submission's files never change; the handle in the URI is a credential, so only the caller caches them.
  cacheHint: { ttlMs: HOUR, cacheScope: 'private' as const },
};

const submissionSvgUri = (handle: string, no: number, fileName: keyof typeof files): string =>
  `jewellery://jobs/${handle}/submissions/${no}/${fileName}`;

/** The resource links to a ready submission's two SVG files. */
export function submissionSvgLinks(handle: string, no: number): ResourceLink[] {
  return Object.entries(files).map(([fileName, file]) => ({
    type: 'resource_link',
    uri: submissionSvgUri(handle, no, fileName),
    name: `submission-${no}-${fileName}`,
    title: file.title,
    description: file.description,
    mimeType: 'image/svg+xml',
  }));
}

/**
 * Reads a submission's SVG through its job handle, authenticated as the tools are; anything the
 * handle does not open (unknown, expired, no such submission or file) is the protocol's
 * resource-not-found error.
 */
export function registerSubmissionSvgResource(server: McpServer, core: Core, context: McpContext): void {
  const template = new ResourceTemplate(uriTemplate, { list: undefined });
  server.registerResource(name, template, config, async (uri, variables) => {
    const [handle, no, fileName] = [variables.jobHandle, variables.submissionNo, variables.file].map(single);
    const file = fileName !== undefined && Object.hasOwn(files, fileName) ? files[fileName] : undefined;
    if (handle === undefined || no === undefined || !file) throw new ResourceNotFoundError(uri.href);
    const job = await core.resolveAgentJob({ sessionKey: context.sessionKey }, { handle });
    if (!job.ok) throw new ResourceNotFoundError(uri.href, `Resource not found: ${job.error.message}`);
    const svg = await core.readSubmissionFile(job.value.job, no, file.file);
    if (!svg.ok) throw new ResourceNotFoundError(uri.href, `Resource not found: ${svg.error.message}`);
    return { contents: [{ uri: uri.href, mimeType: 'image/svg+xml', text: svg.value }] };
  });
}

function single(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
