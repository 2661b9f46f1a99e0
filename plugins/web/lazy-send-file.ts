import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { FastifyStaticOptions } from '@fastify/static';

type SendFile = (this: FastifyReply, file: string) => FastifyReply;

/**
 * @fastify/static's `reply.sendFile`, made on the first file request instead of at start-up, where the
 * plugin and what it loads (send, mime, glob) cost tens of milliseconds before anyone asks for the dashboard.
 * The plugin itself makes it: with `serve: false` all it does with its Fastify instance is log a missing root
 * and decorate the reply, so it runs against a host that keeps that decorator. Headers, ranges, conditional
 * answers and refusals are the plugin's own.
 */
export function lazySendFile(log: FastifyBaseLogger, options: FastifyStaticOptions): (reply: FastifyReply, file: string) => Promise<FastifyReply> {
  async function build(): Promise<SendFile> {
    const { fastifyStatic } = await import('@fastify/static');
    const decorators: Record<string, unknown> = {};
    // Anything else the plugin would use fails loudly here.
    const host = { log, decorateReply: (name: string, value: unknown) => { decorators[name] = value; } };
    await fastifyStatic(host as never, { ...options, serve: false });
    if (typeof decorators.sendFile !== 'function') throw new Error('@fastify/static did not provide reply.sendFile');
    return decorators.sendFile as SendFile;
  }

  let built: Promise<SendFile> | undefined;
  return async (reply, file) => {
    const sendFile = await (built ??= build().catch((error: unknown) => {
      built = undefined; // a later request tries again
      throw error;
    }));
    return sendFile.call(reply, file);
  };
}
