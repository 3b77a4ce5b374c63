import type { ServiceUrls } from '../../core/index.ts';
import { API_CATALOG_PATH, API_REFERENCE_PATH, OPENAPI_PATH } from './document.ts';

/** RFC 9727: a linkset (RFC 9264) with the profile that marks it as an API catalogue. */
const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
export const API_CATALOG_CONTENT_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;

interface LinkTarget {
  href: string;
  type: string;
  title: string;
}

interface ApiCatalog {
  linkset: {
    anchor: string;
    'service-desc': LinkTarget[];
    'service-doc': LinkTarget[];
    'service-meta': LinkTarget[];
  }[];
}

/**
 * The site's one API, anchored at its base address, with the link relations of RFC 8631 that
 * RFC 9727 uses: its description (OpenAPI), its documentation, and its metadata (capabilities).
 */
export function buildApiCatalog(urls: ServiceUrls): ApiCatalog {
  return {
    linkset: [
      {
        anchor: urls.apiBase,
        'service-desc': [
          { href: `${urls.siteUrl}${OPENAPI_PATH}`, type: 'application/json', title: 'OpenAPI 3.1.0 description' },
        ],
        'service-doc': [{ href: `${urls.siteUrl}${API_REFERENCE_PATH}`, type: 'text/html', title: 'API reference' }],
        'service-meta': [
          {
            href: `${urls.apiBase}/capabilities`,
            type: 'application/json',
            title: 'Capabilities: products, limits, image rules, error codes',
          },
        ],
      },
    ],
  };
}

/** RFC 9727 section 2: the catalogue names itself in a Link header, so HEAD alone discovers it. */
export const apiCatalogLink = (urls: ServiceUrls): string =>
  `<${urls.siteUrl}${API_CATALOG_PATH}>; rel="api-catalog"; type="application/linkset+json"`;
