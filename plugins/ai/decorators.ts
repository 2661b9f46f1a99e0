import type { PageCapture } from '../../kernel/contracts/ai.js';

export type { CaptureTask, CapturedPage, PageCapture } from '../../kernel/contracts/ai.js';

// The decorator the AI plugin reads, typed for every plugin by declaration merging (so do not declare it again).
// The runs/browser plugin implements it with `app.decorate('pageCapture', capture)` from a fastify-plugin
// wrapped plugin, so it reaches every scope; the AI plugin looks it up per request, so registration order
// does not matter.
declare module 'fastify' {
  interface FastifyInstance {
    /** Present once the browser layer is installed; generate-selector answers 500 AI_FAILED without it. */
    pageCapture?: PageCapture;
  }
}
