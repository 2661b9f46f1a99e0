import { Errors } from '../../kernel/errors.js';
import type { CaptureExtension, StoredType } from './decorators.js';

/** An execution id a capture can carry: letters, digits, `_` and `-` only. */
export const EXECUTION_ID = /^[A-Za-z0-9_-]{1,200}$/;
/**
 * `<executionId>_<n>.<ext>`; nothing else is ever read, served or deleted. A `zip` is a run's Playwright trace: kept,
 * served and removed with its run's captures, but not listed among them (a capture is a screenshot or a recording). The id may itself hold `_` and
 * digits: the greedy first group leaves the number after the last `_`.
 */
export const CAPTURE_NAME = /^([A-Za-z0-9_-]+)_(\d+)\.(png|jpg|webm|zip)$/;
export const CAPTURE_NAME_PATTERN = CAPTURE_NAME.source;
export const MAX_NAME_LENGTH = 256;

export const EXTENSIONS: readonly CaptureExtension[] = ['png', 'jpg', 'webm', 'zip'];

export const CONTENT_TYPES: Record<CaptureExtension, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webm: 'video/webm',
  zip: 'application/zip',
};

export interface ParsedName {
  runId: string;
  n: number;
  ext: CaptureExtension;
  type: StoredType;
}

export const typeOf = (ext: CaptureExtension): StoredType => (ext === 'zip' ? 'trace' : ext === 'webm' ? 'recording' : 'screenshot');

/** The parts of a capture name, or undefined when `name` is not one (temporary files, strangers). */
export function parseName(name: string): ParsedName | undefined {
  const match = name.length <= MAX_NAME_LENGTH ? CAPTURE_NAME.exec(name) : null;
  if (!match) return undefined;
  const ext = match[3] as CaptureExtension;
  return { runId: match[1]!, n: Number(match[2]), ext, type: typeOf(ext) };
}

export function checkName(name: string): ParsedName {
  const parsed = parseName(name);
  if (!parsed) throw Errors.VALIDATION_ERROR({ message: `capture name must match ${CAPTURE_NAME_PATTERN}` });
  return parsed;
}

export function checkExecutionId(executionId: string): void {
  if (!EXECUTION_ID.test(executionId)) {
    throw Errors.VALIDATION_ERROR({ message: `executionId ${JSON.stringify(executionId)} must match ${EXECUTION_ID.source}` });
  }
}

export function checkExtension(ext: string): CaptureExtension {
  if (!(EXTENSIONS as readonly string[]).includes(ext)) {
    throw Errors.VALIDATION_ERROR({ message: `capture extension must be one of ${EXTENSIONS.join(', ')}, got ${JSON.stringify(ext)}` });
  }
  return ext as CaptureExtension;
}
