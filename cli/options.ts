import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Connection } from './api-client.js';
import { UsageError } from './failure.js';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

export const DEFAULT_URL = 'http://127.0.0.1:11345';

/** `--url` and `--api-key`, accepted by every command that talks to the service. */
export const connectionOptions = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
} as const satisfies OptionsConfig;

/** The lines every client command's --help ends with. */
export const CONNECTION_HELP = `Connection:
  --url <url>        the service (default: $TASKLOOM_URL, else ${DEFAULT_URL})
  --api-key <key>    the system API key (default: $TASKLOOM_API_KEY)`;

/** What `parseOptions` gives for the options `O` (named, so the emitted declarations can name it too). */
export type ParsedOptions<O extends OptionsConfig> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: boolean }>>;

/** `util.parseArgs` in strict mode; its complaints become usage errors (exit 2). */
export function parseOptions<const O extends OptionsConfig>(args: string[], options: O, allowPositionals = false): ParsedOptions<O> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The service address and key from the options, else the environment; never echoes the key. */
export function connectionFrom(values: { url?: string; 'api-key'?: string }, env: NodeJS.ProcessEnv): Connection {
  const url = values.url ?? (env.TASKLOOM_URL || DEFAULT_URL);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url: "${url}" is not a URL (expected e.g. ${DEFAULT_URL})`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--url: "${url}" is not an http(s) URL`);
  const apiKey = values['api-key'] ?? (env.TASKLOOM_API_KEY || undefined);
  return { url: parsed.href.replace(/\/$/, ''), apiKey };
}

/** A whole number within bounds, for options such as --limit. */
export function integerOption(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) throw new UsageError(`--${name}: expected a whole number from ${min} to ${max}, got "${value}"`);
  return number;
}
