import { readFile, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import {
  configuredError,
  coreError,
  invalidRequest,
  type CoreError,
  type Config,
  err,
  ok,
  type Result,
  svgDrawingRules,
} from '../core/index.ts';
import type { McpContext } from './context.ts';

/**
 * The ways submit_design takes a drawing, as flat optional arguments of which exactly one is
 * given: the PNG as base64 or the drawing as SVG text anywhere, or, from a local stdio server
 * only, a PNG file path.
 */
export function drawingInput(transport: McpContext['transport'], config: Config) {
  const pngBase64 = z
    .string()
    .optional()
    .describe('The drawing: PNG file bytes, base64-encoded (a data:image/png;base64, prefix is accepted).');
  const svg = z
    .string()
    .optional()
    .describe(
      `Instead of pngBase64: the drawing as SVG text (at most ${config.svg.maxBytes.toLocaleString('en')} bytes), rendered by the server on the job's canvas. ${svgDrawingRules(config).join(' ')}`,
    );
  if (transport !== 'stdio') return { pngBase64, svg };
  return {
    pngBase64,
    svg,
    path: z
      .string()
      .optional()
      .describe('Instead of pngBase64: the absolute path of a PNG file on this machine (local stdio server only).'),
  };
}

interface DrawingArgs {
  pngBase64?: string | undefined;
  svg?: string | undefined;
  path?: string | undefined;
}

/** The drawing as given: PNG bytes, or SVG text for the core to render (`core.submitSvg`). */
type GivenDrawing = { png: Uint8Array } | { svg: string };

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The drawing from exactly one of the drawing arguments; refusals in the contract's codes. */
export async function readDrawing(
  args: DrawingArgs,
  transport: McpContext['transport'],
  image: Config['image'],
): Promise<Result<GivenDrawing, CoreError>> {
  const given = (value: string | undefined) => value !== undefined && value !== '';
  const hasPath = transport === 'stdio' && given(args.path);
  const count = [given(args.pngBase64), given(args.svg), hasPath].filter(Boolean).length;
  if (count !== 1) {
    return err(
      invalidRequest(
        transport === 'stdio'
          ? 'Give the drawing in exactly one of pngBase64 (PNG bytes, base64), svg (SVG text) or path (an absolute PNG file path).'
          : 'Give the drawing in exactly one of pngBase64 (PNG bytes, base64) or svg (SVG text).',
      ),
    );
  }
  if (given(args.svg)) return ok({ svg: args.svg! });
  const png = hasPath ? await readPngFile(args.path!, image) : decodeBase64(args.pngBase64!, image);
  return png.ok ? ok({ png: png.value }) : png;
}

function decodeBase64(given: string, image: Config['image']): Result<Uint8Array, CoreError> {
  const text = given.replace(/^data:[^,]*;base64,/i, '').replace(/\s+/g, '');
  if (!BASE64.test(text) || text.length % 4 === 1) {
    return err(
      coreError('INVALID_REQUEST', {
        message: 'pngBase64 is not valid base64.',
        agent_instruction: 'Encode the PNG file bytes with standard base64 and send the whole string in pngBase64.',
      }),
    );
  }
  // Refuse before decoding what could only be too large.
  if (Math.floor((text.length * 3) / 4) > image.maxBytes + 3) return err(configuredError('FILE_TOO_LARGE', image));
  const bytes = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  if (bytes.length === 0) return err(invalidRequest('pngBase64 is empty; send the PNG file bytes.'));
  if (bytes.length > image.maxBytes) return err(configuredError('FILE_TOO_LARGE', image));
  return ok(bytes);
}

async function readPngFile(path: string, image: Config['image']): Promise<Result<Uint8Array, CoreError>> {
  if (!isAbsolute(path)) return err(invalidRequest('path must be an absolute file path.'));
  try {
    const info = await stat(path);
    if (!info.isFile()) return err(invalidRequest(`There is no file at ${path}.`));
    if (info.size > image.maxBytes) return err(configuredError('FILE_TOO_LARGE', image));
    const bytes = await readFile(path);
    if (bytes.length === 0) return err(invalidRequest(`The file at ${path} is empty.`));
    return ok(bytes);
  } catch {
    return err(invalidRequest(`The file at ${path} cannot be read.`));
  }
}
