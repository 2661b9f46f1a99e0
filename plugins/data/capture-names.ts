import mime from 'mime-types';
import { Errors } from '../../kernel/errors.js';
import type { CaptureExtension, StoredType } from './decorators.js';

/** An execution id a capture can carry: letters, digits, `_` and `-` only. */
export const EXECUTION_ID = /^[A-Za-z0-9_-]{1,200}$/;
/**
 * `<executionId>_<n>.<ext>`; nothing else is ever read, served or deleted. A `zip` is a run's Playwright trace: kept,
 * served and removed with its run's captures, but not listed among them (a capture is a screenshot or a recording). The id may itself hold `_` and
 * digits: the greedy first group leaves the number after the last `_`. A download is `<executionId>_<n>.download.<file
 * name>`, the site's name made safe (`safeFileName`).
 */
export const CAPTURE_NAME = /^([A-Za-z0-9_-]+)_(\d+)\.(png|jpg|webm|zip|download\.([A-Za-z0-9_-][A-Za-z0-9._-]*))$/;
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
  /** A download has no extension of its own: its type comes from `fileName`. */
  ext: CaptureExtension | 'download';
  type: StoredType;
  /** A download's file name. */
  fileName?: string;
  contentType: string;
}

const typeOf = (ext: CaptureExtension | 'download'): StoredType =>
  (ext === 'zip' ? 'trace' : ext === 'webm' ? 'recording' : ext === 'download' ? 'download' : 'screenshot');

/** A download's media type, from its name's extension. */
export const contentTypeOf = (fileName: string): string => mime.lookup(fileName) || 'application/octet-stream';

/**
 * A file name a site suggested, made a blob name's tail: characters other than letters, digits, `.`, `_` and `-`
 * become `_`, leading dots go, and a long one keeps its start and its extension within `max` characters.
 */
export function safeFileName(name: string, max: number): string {
  const base = name.split(/[\\/]/).pop()!.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '') || 'download';
  if (base.length <= max) return base;
  const ext = /\.[A-Za-z0-9_-]{1,16}$/.exec(base)?.[0] ?? '';
  return base.slice(0, max - ext.length) + ext;
}

/** The parts of a capture name, or undefined when `name` is not one (temporary files, strangers). */
export function parseName(name: string): ParsedName | undefined {
  const match = name.length <= MAX_NAME_LENGTH ? CAPTURE_NAME.exec(name) : null;
  if (!match) return undefined;
  const fileName = match[4];
  const ext = fileName === undefined ? match[3] as CaptureExtension : 'download';
  const contentType = fileName === undefined ? CONTENT_TYPES[ext as CaptureExtension] : contentTypeOf(fileName);
  return { runId: match[1]!, n: Number(match[2]), ext, type: typeOf(ext), contentType, ...(fileName === undefined ? {} : { fileName }) };
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
