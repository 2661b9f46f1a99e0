import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../kernel/contracts/logger.js';
import { Errors } from '../../kernel/errors.js';
import type { Instance } from '../instances/decorators.js';
import { devtoolsPath } from './devtools-relay.js';
import type { PeerAuth } from './peer-auth.js';
import { closeOnPeer, openTunnel, proxyUpgrade, type PeerAnswer } from './peer-calls.js';
import type { SessionRecords } from './session-records.js';

/** The path a holder shows its display to a VNC viewer of another instance on (a peer's upgrade only). */
export const vncPath = (sessionId: string) => `/api/browser/sessions/${encodeURIComponent(sessionId)}/vnc`;

/** The path a holder takes a close on (an upgrade request carrying the peer header: never an API route). */
export const closePath = (sessionId: string) => `/api/browser/sessions/${encodeURIComponent(sessionId)}/close`;

export const notOpen = (sessionId: string) =>
  Errors.NOT_FOUND({}, { details: `Browser session ${sessionId} is not open: open one with POST /api/browser/open` });

export interface RemoteSessionsOptions {
  records: SessionRecords;
  auth: PeerAuth;
  instance: Instance;
  logger: Logger;
}

/**
 * The browser sessions other instances hold, reached at the URL each advertises in its lease: a DevTools upgrade is
 * handed over (peer-calls.ts), a close is asked for. Both carry a peer header (peer-auth.ts).
 */
export class RemoteSessions {
  constructor(private readonly options: RemoteSessionsOptions) {}

  /**
   * Hands a client's DevTools upgrade to the holder of `sessionId`. Resolves to false when no live instance holds
   * it, to the holder's answer when it refused, to true once piping.
   */
  async proxy(req: IncomingMessage, socket: Duplex, head: Buffer, sessionId: string, track: (ends: Duplex[]) => void): Promise<boolean | PeerAnswer> {
    const holder = await this.holder(sessionId);
    if (!holder) return false;
    const peer = this.options.auth.sign('devtools', sessionId, holder.id);
    try {
      const refused = await proxyUpgrade(req, socket, head, { base: holder.url, path: devtoolsPath(sessionId), peer }, track);
      if (!refused) this.options.logger.info({ sessionId, holder: holder.id }, 'DevTools client relayed to the instance holding the browser');
      return refused ?? true;
    } catch (error) {
      throw unreachable(holder, error);
    }
  }

  /** Has the holder close `sessionId`; throws NOT_FOUND when no live instance holds it, UPSTREAM_ERROR when it does not answer. */
  async close(sessionId: string): Promise<void> {
    const holder = await this.holder(sessionId);
    if (!holder) throw notOpen(sessionId);
    let answer: PeerAnswer;
    try {
      answer = await closeOnPeer({ base: holder.url, path: closePath(sessionId), peer: this.options.auth.sign('close', sessionId, holder.id) });
    } catch (error) {
      throw unreachable(holder, error);
    }
    if (answer.status === 404) throw notOpen(sessionId);
    if (answer.status !== 200) throw Errors.UPSTREAM_ERROR({ reason: `Instance ${holder.id}, which holds browser session ${sessionId}, answered ${answer.status} to closing it` });
    this.options.logger.info({ sessionId, holder: holder.id }, 'browser session closed through the instance holding it');
  }

  /**
   * Pipes a VNC viewer of this instance to the display of the instance holding `sessionId`; resolves to false when
   * none holds it or the holder serves no display (the viewer then stays here).
   */
  async tunnelVnc(viewer: Duplex, sessionId: string): Promise<boolean> {
    const holder = await this.holder(sessionId);
    if (!holder) return false;
    const opened = await openTunnel({ base: holder.url, path: vncPath(sessionId), peer: this.options.auth.sign('vnc', sessionId, holder.id) })
      .catch((error: unknown) => { throw unreachable(holder, error); });
    if (!('pipe' in opened)) return false;
    if (viewer.destroyed) {
      opened.destroy();
      return true;
    }
    const end = () => { viewer.destroy(); opened.destroy(); };
    for (const side of [viewer, opened]) {
      side.on('error', end);
      side.on('close', end);
    }
    opened.pipe(viewer);
    viewer.pipe(opened);
    this.options.logger.info({ sessionId, holder: holder.id }, 'VNC viewer shown the display of the instance holding the browser');
    return true;
  }

  /** The sessions other live instances hold. */
  heldElsewhere(): Promise<string[]> {
    return this.options.records.heldElsewhere();
  }

  private async holder(sessionId: string): Promise<{ id: string; url: string } | undefined> {
    const id = await this.options.records.holderOf(sessionId);
    if (id === undefined || id === this.options.instance.id) return undefined;
    const url = await this.options.instance.urlOf(id);
    return url === undefined ? undefined : { id, url };
  }
}

function unreachable(holder: { id: string; url: string }, error: unknown) {
  const why = error instanceof Error ? error.message : String(error);
  return Errors.UPSTREAM_ERROR({ reason: `Instance ${holder.id}, which holds the browser, did not answer at ${holder.url} (${why}): check INSTANCE_URL and that instances reach each other` },
    { cause: error });
}
