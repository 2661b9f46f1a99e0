import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import type { CaptureTask, PageCapture } from '../runs/decorators.js';
import { ErrorBody, ScriptAnswer, ScriptBody, SelectorAnswer, SelectorBody } from './schemas.js';
import type { AiService } from './service.js';

const tags = ['ai'];
const config = { auth: 'authenticated' } as const;

/** Aborted when the caller goes away before the answer or the service stops: no more paid AI calls for nobody. */
function signalFor(reply: FastifyReply, shutdown: AbortSignal): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => { if (!reply.raw.writableFinished) gone.abort(); });
  return AbortSignal.any([gone.signal, shutdown]);
}

const notBlank = (value: string, field: string) => {
  if (value.trim() === '') throw Errors.VALIDATION_ERROR({ message: `body.${field} must not be blank` });
  return value;
};

export interface AiRoutesOptions {
  service: AiService;
  /** The page capture generate-selector uses, if the composition has one. */
  capture(): PageCapture | undefined;
}

export async function aiRoutes(scope: FastifyInstance, options: AiRoutesOptions): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { service } = options;
  const { shutdownSignal } = scope.services;

  app.post('/tasks/generate-script', {
    config: { ...config, errors: [Errors.NO_AI_PROVIDER, Errors.AI_PROVIDERS_FAILED] },
    schema: {
      tags,
      operationId: 'generateScript',
      summary: 'Write an extraction script for a description, asking the AI providers in the order A, B, C, D',
      body: ScriptBody,
      response: { 200: ScriptAnswer, 400: ErrorBody, 502: ErrorBody },
    },
  }, async (request, reply) => {
    const description = notBlank(request.body.description, 'description');
    return { script: await service.generateScript(description, signalFor(reply, shutdownSignal)) };
  });

  app.post('/tasks/generate-selector', {
    config: { ...config, errors: [Errors.NO_AI_PROVIDER, Errors.INVALID_URL, Errors.PROXY_NOT_FOUND, Errors.AI_FAILED] },
    schema: {
      tags,
      operationId: 'generateSelector',
      summary: 'Find a CSS selector for an element of the page the task reaches at actionIndex, checked on the live page',
      body: SelectorBody,
      response: { 200: SelectorAnswer, 400: ErrorBody, 404: ErrorBody, 500: ErrorBody },
    },
  }, async (request, reply) => {
    const { task, actionIndex, prompt } = request.body;
    notBlank(prompt, 'prompt');
    const selector = await service.generateSelector(
      { task: task as CaptureTask, actionIndex, prompt }, options.capture(), signalFor(reply, shutdownSignal),
    );
    return { selector };
  });
}
