import type { OutboundClient } from './client.js';
import type { OutboundGuard } from './guard.js';

export { createOutboundGuard, OutboundBlockedError, asError, addressRange } from './guard.js';
export type { OutboundGuard, OutboundGuardOptions, CheckUrlOptions, HostLookup, ResolvedAddress } from './guard.js';
export { createOutboundClient, OutboundRequestError } from './client.js';
export type { OutboundClient, OutboundRequestInit, OutboundResponse } from './client.js';

/** What the kernel hands plugins and providers for any request leaving the service. */
export interface OutboundServices {
  guard: OutboundGuard;
  client: OutboundClient;
}
