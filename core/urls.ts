/** The public addresses the service puts into its answers. */
export interface ServiceUrls {
  siteUrl: string;
  apiBase: string;
}

export const API_BASE_PATH = '/api/agent/v1';

export function serviceUrls(siteUrl: string): ServiceUrls {
  const site = siteUrl.replace(/\/+$/, '');
  return { siteUrl: site, apiBase: `${site}${API_BASE_PATH}` };
}

export const approvalUrl = (urls: ServiceUrls, token: string): string => `${urls.siteUrl}/a/${token}`;

export const submissionFileUrl = (urls: ServiceUrls, jobId: string, no: number, file: 'cutouts' | 'preview'): string =>
  `${urls.apiBase}/jobs/${jobId}/submissions/${no}/${file}.svg`;
