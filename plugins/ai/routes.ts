import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import type { CaptureTask, PageCapture } from '../runs/decorators.js';
import { ErrorBody, GeneratedTaskAnswer, ScriptAnswer, ScriptBody, SelectorAnswer, SelectorBody, TaskGoalBody } from './schemas.js';
import { generateTask } from './task-generator.js';
import type { AiChain } from './chain.js';
import type { AiService } from './service.js';
import { FINGERPRINT_BODY, healingStoreOf, rememberFingerprint, type ElementFingerprint } from '../../layers/healing/index.js';

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
  chain: AiChain;
}

export async function aiRoutes(scope: FastifyInstance, options: AiRoutesOptions): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { service } = options;
  const { shutdownSignal } = scope.services;

  app.post('/tasks/generate-script', {
    config: { ...config, access: 'write', errors: [Errors.NO_AI_PROVIDER, Errors.AI_PROVIDERS_FAILED] },
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
    config: { ...config, access: 'write', errors: [Errors.NO_AI_PROVIDER, Errors.INVALID_URL, Errors.PROXY_NOT_FOUND, Errors.AI_FAILED] },
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
    // For a saved task, the element of the selector taken is fingerprinted for healing (README "Healing").
    const store = healingStoreOf(app.services.storage);
    const taskId = typeof (task as CaptureTask).id === 'string' ? (task as CaptureTask).id as string : undefined;
    const selector = await service.generateSelector(
      { task: task as CaptureTask, actionIndex, prompt }, options.capture(), signalFor(reply, shutdownSignal),
      store && taskId ? async (page, taken) => {
        if (!page.evaluate || !(await app.services.storage.tasks.get(taskId))) return;
        const fingerprint = await page.evaluate(FINGERPRINT_BODY, { selector: taken }) as ElementFingerprint | null;
        if (fingerprint) await rememberFingerprint(store, taskId, actionIndex, taken, fingerprint);
      } : undefined,
    );
    return { selector };
  });

  app.post('/tasks/generate-task', {
    config: { ...config, access: 'write', errors: [Errors.NO_AI_PROVIDER, Errors.INVALID_URL, Errors.AI_FAILED] },
    schema: {
      tags,
      operationId: 'generateTask',
      summary: 'Build and save a task from a goal and a start URL, one action at a time, each checked on the live page (README "Healing")',
      body: TaskGoalBody,
      response: { 200: GeneratedTaskAnswer, 400: ErrorBody, 500: ErrorBody },
    },
  }, async (request, reply) => {
    const { goal, url, name, maxSteps } = request.body;
    notBlank(goal, 'goal');
    const storage = app.services.storage;
    return generateTask(
      { chain: options.chain, capture: options.capture(), tasks: storage.tasks, healing: healingStoreOf(storage) },
      { goal, url, maxSteps: maxSteps ?? 8, ...(name ? { name } : {}) }, signalFor(reply, shutdownSignal),
    );
  });
}
