export { createOutboundGuard, OutboundBlockedError, asError, addressRange } from './guard.js';
export type { OutboundGuard, OutboundGuardOptions, CheckUrlOptions, HostLookup, ResolvedAddress } from './guard.js';
export { createOutboundClient, OutboundRequestError } from './client.js';
export type { OutboundClient, OutboundRequestInit, OutboundResponse } from './client.js';
export type { OutboundServices } from '../contracts/outbound.js';
