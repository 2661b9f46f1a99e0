import type { Logger } from '../../../kernel/contracts/logger.js';

export const silentLogger: Logger = { fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, child: () => silentLogger };
