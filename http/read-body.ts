import {
  type Config,
  configuredError,
  coreError,
  invalidRequest,
  type CoreError,
  readCapped,
  err,
  ok,
  type Result,
} from '../core/index.ts';

/** Multipart framing (boundaries, part headers) allowed on top of the file's own size cap. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const UNTYPED_PART_TYPES = new Set(['', 'application/octet-stream', 'text/plain']);

export const mediaType = (header: string | null | undefined): string =>
  (header ?? '').split(';')[0]!.trim().toLowerCase();

const cutOff = (): CoreError => invalidRequest('The request body ended before its declared end.');

const tooLarge = (image: Config['image']): CoreError => configuredError('FILE_TOO_LARGE', image);

const declaredTooLarge = (request: Request, cap: number): boolean => {
  const length = Number(request.headers.get('content-length') ?? NaN);
  return Number.isFinite(length) && length > cap;
};

/**
 * The uploaded PNG's bytes from a raw `image/png` body or the `image` part of a multipart body,
 * with the size cap enforced on Content-Length, on the stream and on the part.
 */
export async function readUpload(request: Request, image: Config['image']): Promise<Result<Uint8Array>> {
  const type = mediaType(request.headers.get('content-type'));
  if (type === 'image/png') {
    if (declaredTooLarge(request, image.maxBytes)) return err(tooLarge(image));
    const bytes = await readCapped(request.body, image.maxBytes);
    if (bytes === 'too-large') return err(tooLarge(image));
    if (bytes === 'cut-off') return err(cutOff());
    if (bytes.byteLength === 0) return err(invalidRequest('The request body is empty; send the PNG bytes.'));
    return ok(bytes);
  }
  if (type === 'multipart/form-data') return readMultipart(request, image);
  return err(
    coreError('UNSUPPORTED_FORMAT', {
      message: type
        ? `Content-Type ${type} is not accepted; send image/png or multipart/form-data.`
        : 'The request has no Content-Type; send image/png or multipart/form-data.',
    }),
  );
}

async function readMultipart(request: Request, image: Config['image']): Promise<Result<Uint8Array>> {
  const cap = image.maxBytes + MULTIPART_OVERHEAD_BYTES;
  if (declaredTooLarge(request, cap)) return err(tooLarge(image));
  const bytes = await readCapped(request.body, cap);
  if (bytes === 'too-large') return err(tooLarge(image));
  if (bytes === 'cut-off') return err(cutOff());
  if (bytes.byteLength === 0)
    return err(invalidRequest('The request body is empty; send a multipart body with the file field "image".'));
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': request.headers.get('content-type')! },
    }).formData();
  } catch {
    return err(invalidRequest('The multipart body could not be parsed.'));
  }
  const part = form.get('image');
  if (part === null) return err(invalidRequest('The multipart body has no file field named "image".'));
  if (typeof part === 'string')
    return err(invalidRequest('Field "image" must be a file part (with a filename), not a text field.'));
  const partType = mediaType(part.type);
  if (partType !== 'image/png' && !UNTYPED_PART_TYPES.has(partType)) {
    return err(
      coreError('UNSUPPORTED_FORMAT', {
        message: `The "image" part is typed ${partType}; only image/png is accepted.`,
      }),
    );
  }
  if (part.size > image.maxBytes) return err(tooLarge(image));
  if (part.size === 0) return err(invalidRequest('The file field "image" is empty.'));
  return ok(new Uint8Array(await part.arrayBuffer()));
}

/**
 * A body whose Content-Length is declared (and already checked against the cap): Node's parser
 * delivers exactly that many bytes, so it is read whole. @hono/node-server reads it straight
 * from the socket; `body` as a stream would build a full fetch Request first (a third of the
 * cost of a `POST /jobs`).
 */
async function readDeclared(request: Request): Promise<Uint8Array | 'cut-off'> {
  try {
    return new Uint8Array(await request.arrayBuffer());
  } catch {
    return 'cut-off';
  }
}

/** A JSON request body as text, refused when it is not JSON or is unreasonably large. */
export async function readJsonText(request: Request, cap: number): Promise<Result<string>> {
  const type = mediaType(request.headers.get('content-type'));
  if (type !== 'application/json' && !type.endsWith('+json')) {
    return err(invalidRequest('Content-Type must be application/json.'));
  }
  if (declaredTooLarge(request, cap)) return err(invalidRequest(`The request body is larger than ${cap} bytes.`));
  let bytes = request.headers.has('content-length') ? await readDeclared(request) : await readCapped(request.body, cap);
  // Node's parser holds a body to its Content-Length; a Request built in-process need not.
  if (bytes instanceof Uint8Array && bytes.byteLength > cap) bytes = 'too-large';
  if (bytes === 'too-large') return err(invalidRequest(`The request body is larger than ${cap} bytes.`));
  if (bytes === 'cut-off') return err(cutOff());
  try {
    return ok(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return err(invalidRequest('The request body is not valid UTF-8.'));
  }
}
