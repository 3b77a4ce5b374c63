import { escapeHtml } from '../../web/html.ts';
import type { JsonSchema } from './components.ts';
import { OPENAPI_PATH } from './document.ts';
import { COMMON_HEADER_NAMES, type OpenApiObject } from './responses.ts';
import { schemaAnchor, schemaHtml } from './schema-html.ts';

/** The parts of the document the page reads. */
interface Doc {
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiObject>;
    parameters: Record<string, OpenApiObject>;
    headers: Record<string, OpenApiObject>;
    securitySchemes: Record<string, OpenApiObject>;
  };
}

interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security: Record<string, unknown>[];
  parameters?: OpenApiObject[];
  requestBody?: { description?: string; content: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, OpenApiObject>;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}
main{max-width:60rem;margin:0 auto;padding:1rem 1.25rem 4rem}
h2{margin-top:2.5rem;border-bottom:1px solid #ddd}h3{margin-top:2rem}
code{font:0.9em ui-monospace,monospace;background:#f3f3f3;padding:0 .2em;border-radius:3px}
.method{font:700 0.85em ui-monospace,monospace;padding:.1em .4em;border-radius:3px;background:#222;color:#fff}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
table.fields{margin:.25rem 0}.note{color:#555;font-size:.9em}ul.toc{columns:2}
td,th,code,h3,p,li,dd{overflow-wrap:anywhere}
@media (max-width:40rem){ul.toc{columns:1}
table,tbody,tr,td{display:block;width:auto}thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
tr{border:1px solid #ddd;border-radius:4px;margin:.5rem 0;padding:.25rem .5rem}td{border:0;padding:.2rem 0}
td[data-label]::before{content:attr(data-label) ": ";font-weight:700}
table.fields tr{border-width:0 0 0 2px;border-radius:0;margin:.25rem 0;padding:0 0 0 .5rem}}`;

const resolve = (doc: Doc, value: OpenApiObject, section: 'responses' | 'parameters' | 'headers'): OpenApiObject => {
  const reference = value.$ref;
  return typeof reference === 'string' ? (doc.components[section][reference.split('/').pop()!] ?? {}) : value;
};

/** Paragraphs and "- " lists from the document's plain-text descriptions. */
function prose(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split('\n');
      const items = lines.filter((line) => line.startsWith('- '));
      const lead = lines.filter((line) => !line.startsWith('- ')).join(' ');
      const list = items.length ? `<ul>${items.map((i) => `<li>${escapeHtml(i.slice(2))}</li>`).join('')}</ul>` : '';
      return `${lead ? `<p>${escapeHtml(lead)}</p>` : ''}${list}`;
    })
    .join('\n');
}

function operationsOf(doc: Doc): [string, string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== 'head')
      .map(([method, op]): [string, string, Operation] => [method, path, op]),
  );
}

function authText(doc: Doc, op: Operation): string {
  if (op.security.length === 0) return 'None.';
  return op.security
    .flatMap((requirement) => Object.keys(requirement))
    .map((name) => `<code>${escapeHtml(name)}</code>: ${escapeHtml(doc.components.securitySchemes[name]?.description)}`)
    .join('<br>');
}

function parametersHtml(doc: Doc, op: Operation): string {
  if (!op.parameters?.length) return '';
  const rows = op.parameters
    .map((p) => resolve(doc, p, 'parameters'))
    .map(
      (p) =>
        `<tr><td data-label="Name"><code>${escapeHtml(p.name)}</code></td><td data-label="In">${escapeHtml(p.in)}${p.required ? '' : ', optional'}</td><td data-label="Type">${schemaHtml(p.schema)}</td><td data-label="Meaning">${escapeHtml(p.description ?? '')}</td></tr>`,
    );
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function requestHtml(op: Operation): string {
  if (!op.requestBody) return '';
  const bodies = Object.entries(op.requestBody.content).map(
    ([type, media]) => `<dt><code>${escapeHtml(type)}</code></dt><dd>${schemaHtml(media.schema)}</dd>`,
  );
  const description = op.requestBody.description ? `<p>${escapeHtml(op.requestBody.description)}</p>` : '';
  return `<h4>Request body</h4>${description}<dl>${bodies.join('')}</dl>`;
}

function responsesHtml(doc: Doc, op: Operation): string {
  const rows = Object.entries(op.responses).map(([status, value]) => {
    const response = resolve(doc, value, 'responses');
    const headers = Object.entries((response.headers ?? {}) as Record<string, OpenApiObject>)
      .filter(([name]) => !COMMON_HEADER_NAMES.includes(name))
      .map(([name]) => `<code>${escapeHtml(name)}</code>`);
    const content = Object.entries((response.content ?? {}) as Record<string, { schema?: JsonSchema }>).map(
      ([type, media]) => `<div><code>${escapeHtml(type)}</code> ${schemaHtml(media.schema)}</div>`,
    );
    const headerLine = headers.length ? `<div class="note">Headers: ${headers.join(', ')}</div>` : '';
    return `<tr><td data-label="Status">${escapeHtml(status)}</td><td data-label="Meaning">${escapeHtml(response.description)}${headerLine}</td><td data-label="Body">${content.join('')}</td></tr>`;
  });
  return `<h4>Responses</h4><table><thead><tr><th>Status</th><th>Meaning</th><th>Body</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function operationHtml(doc: Doc, [method, path, op]: [string, string, Operation]): string {
  const head = doc.paths[path]?.head ? ' <span class="note">(HEAD too)</span>' : '';
  return `<section id="${escapeHtml(op.operationId)}">
<h3><span class="method">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code>${head}</h3>
<p><strong>${escapeHtml(op.summary)}.</strong> ${escapeHtml(op.description)}</p>
<p>Authentication: ${authText(doc, op)}</p>
${parametersHtml(doc, op)}${requestHtml(op)}${responsesHtml(doc, op)}
</section>`;
}

function schemasHtml(doc: Doc): string {
  return Object.entries(doc.components.schemas)
    .map(
      ([id, schema]) =>
        `<section id="${escapeHtml(schemaAnchor(id))}"><h3>${escapeHtml(id)}</h3>${
          typeof schema.description === 'string' ? `<p>${escapeHtml(schema.description)}</p>` : ''
        }${schemaHtml(schema)}</section>`,
    )
    .join('\n');
}

function sharedHtml(doc: Doc): string {
  const rows = Object.entries(doc.components.responses).map(([name, response]) => {
    const content = Object.values((response.content ?? {}) as Record<string, { schema?: JsonSchema }>);
    return `<tr><td>${escapeHtml(name)}</td><td>${escapeHtml(response.description)}</td><td>${content.map((m) => schemaHtml(m.schema)).join('')}</td></tr>`;
  });
  return `<table><tbody>${rows.join('')}</tbody></table>`;
}

function headersHtml(doc: Doc): string {
  const rows = Object.entries(doc.components.headers).map(
    ([name, header]) => `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(header.description)}</td></tr>`,
  );
  return `<table><tbody>${rows.join('')}</tbody></table>`;
}

/** The API reference as one plain HTML page: no script, so the site's strict CSP holds. */
export function renderReferencePage(document: OpenApiObject): string {
  const doc = document as unknown as Doc;
  const ops = operationsOf(doc);
  const toc = doc.tags
    .map((tag) => {
      const links = ops
        .filter(([, , op]) => op.tags.includes(tag.name))
        .map(
          ([method, path, op]) =>
            `<li><a href="#${escapeHtml(op.operationId)}">${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</a></li>`,
        );
      return `<li>${escapeHtml(tag.name)}<ul>${links.join('')}</ul></li>`;
    })
    .join('');
  const sections = doc.tags
    .map(
      (tag) =>
        `<h2>${escapeHtml(tag.name)}</h2><p>${escapeHtml(tag.description)}</p>\n${ops
          .filter(([, , op]) => op.tags.includes(tag.name))
          .map((op) => operationHtml(doc, op))
          .join('\n')}`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>API reference · ${escapeHtml(doc.info.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(doc.info.title)}</h1>
<p>Contract version ${escapeHtml(doc.info.version)}. Base address: <code>${escapeHtml(doc.servers[0]?.url)}</code>. The machine-readable OpenAPI 3.1.0 document: <a href="${escapeHtml(OPENAPI_PATH)}">${escapeHtml(OPENAPI_PATH)}</a>.</p>
${prose(doc.info.description)}
<nav aria-label="Endpoints"><ul class="toc">${toc}</ul></nav>
${sections}
<h2>Answers any path can give</h2>
${sharedHtml(doc)}
<h2>Headers</h2>
${headersHtml(doc)}
<h2>Schemas</h2>
${schemasHtml(doc)}
</main>
</body>
</html>
`;
}
