import type { Capabilities, Drawing } from '../core/index.ts';

/** The drawing rules an agent must follow, in short lines built from the live capabilities. */
export function drawingRules(capabilities: Capabilities): string[] {
  const { image, manufacturing: m } = capabilities;
  return [
    `Produce a PNG, ${image.recommendedPixels} pixels (landscape), at most ${image.maxBytes.toLocaleString('en')} bytes: flat black on pure white, 8-bit, no alpha, no anti-aliasing.`,
    ...image.rules,
    `In millimetres on the finished ${m.thicknessMm} mm ${m.material}: every opening at least ${m.minOpeningMm} mm wide, every bar of metal at least ${m.minMetalMm} mm wide. open_job converts both into pixels for the job (drawing.minOpeningPx, drawing.minMetalPx).`,
    'Fill the rectangle drawing.stripPx of the job with the design; the strip is scaled to the job length x width, so a drawing at another ratio is stretched (PROPORTION_MISMATCH).',
  ];
}

/** The job's own drawing hints, in words. */
export function drawingHintLines(drawing: Drawing): string[] {
  const s = drawing.stripPx;
  return [
    `Canvas ${drawing.recommendedPixels} px, white background.`,
    `Draw the strip inside x=${s.x}..${s.x + s.width}, y=${s.y}..${s.y + s.height} (${s.width} x ${s.height} px, ratio ${drawing.ratio}), leaving the margin white.`,
    `Openings (white inside black) at least ${drawing.minOpeningPx} px wide; black bars at least ${drawing.minMetalPx} px wide (${drawing.mmPerPx} mm per px).`,
    `Openings smaller than ${drawing.minOpeningAreaMm2} mm² are filled in, so keep them larger.`,
  ];
}

/** The drawing rules as a markdown document (the `drawing-rules` resource). */
export function drawingRulesMarkdown(capabilities: Capabilities): string {
  return [
    '# Drawing rules for laser-cut brass jewellery',
    '',
    'Black is metal, white is air. The design is cut from a flat brass strip that is then bent into a bracelet or ring.',
    '',
    ...drawingRules(capabilities).map((rule) => `- ${rule}`),
    '',
    '## Flow',
    '',
    ...designFlow(capabilities).map((step, i) => `${i + 1}. ${step}`),
    '',
  ].join('\n');
}

/** The steps an agent takes, tool by tool. */
export function designFlow(capabilities: Capabilities): string[] {
  return [
    'get_capabilities: products, size forms, prices and these rules.',
    'open_job with productType, widthMm and the size as one of wristMm (+ fit), usRingSize or lengthMm; keep its jobHandle and read its drawing hints.',
    'Draw the PNG to those hints and call submit_design with the jobHandle and the PNG.',
    "If it fails validation, follow each finding's agent_instruction (locations are in mm on the strip, with px: the place in your own image; every problem is listed at once, so fix them all) and submit a corrected PNG; the job takes up to " +
      `${capabilities.limits.submissionsPerJob} counted submissions.`,
    'When it is ready, give the person the approval link (the page is in Hebrew) and show them the preview.',
    `check_approval no more often than every ${capabilities.limits.pollIntervalSec} seconds until approval.status is approved or declined.`,
  ];
}
