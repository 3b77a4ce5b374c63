import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Core } from '../../core/index.ts';
import { designFlow, drawingRules } from '../drawing-rules.ts';

export const name = 'design_jewellery';

export const config = {
  title: 'Design a piece of jewellery',
  description:
    'Walks through designing a laser-cut brass bracelet or ring with the person: size, drawing, fixes, and the Hebrew approval page.',
  argsSchema: z.object({
    productType: z.string().optional().describe('bracelet or ring, if already known.'),
    idea: z.string().optional().describe('What the person wants on the piece, in their words.'),
  }),
};

export function registerDesignJewelleryPrompt(server: McpServer, core: Core): void {
  server.registerPrompt(name, config, ({ productType, idea }) => {
    const capabilities = core.capabilities();
    const text = [
      `Help me design a laser-cut brass ${productType === 'ring' ? 'ring' : productType === 'bracelet' ? 'bracelet' : 'bracelet or ring'} with the jewellery design tools.`,
      idea ? `What I want on it: ${idea}` : 'Ask me what I would like on it.',
      '',
      'Steps:',
      ...designFlow(capabilities).map((step, i) => `${i + 1}. ${step}`),
      '',
      'Ask me for my size (wrist circumference in mm and fit for a bracelet, US ring size for a ring) if you do not know it.',
      'Drawing rules:',
      ...drawingRules(capabilities).map((rule) => `- ${rule}`),
      '',
      'Show me the preview when a submission is ready, and give me the approval link: the approval page is in Hebrew.',
    ].join('\n');
    return {
      description: config.description,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    };
  });
}
