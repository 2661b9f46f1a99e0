import { Errors } from '../../kernel/errors.js';
import type { OutboundGuard } from '../../kernel/outbound/index.js';
import type { AiSlot, ProviderDEndpoint, StoredAiProviderKeys } from './entries.js';
import { SETTINGS_KEYS, type TypedSettings } from './keys.js';

const KEY = SETTINGS_KEYS.aiProviderKeys;
const MASK_PREFIX = '****';

/** `****` and the last 4 characters; a key shorter than 8 shows none of itself. */
export function maskKey(key: string): string {
  return key.length >= 8 ? MASK_PREFIX + key.slice(-4) : MASK_PREFIX;
}

const fail = (message: string) => Errors.VALIDATION_ERROR({ message });

/** Trimmed entries without blanks, each with its position in the request (for error messages). */
function entriesOf(submitted: string[]): { entry: string; index: number }[] {
  return submitted.map((raw, index) => ({ entry: raw.trim(), index })).filter(({ entry }) => entry !== '');
}

const unique = <T>(items: T[], by: (item: T) => string) => {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(by(item)) && seen.add(by(item)));
};

/**
 * The keys to store for a submitted list: a masked entry (`****…`) stands for the stored key it masks, each
 * stored key standing for one entry at most; other entries are new keys. Duplicates are dropped.
 */
export function resolveKeys(submitted: string[], stored: readonly string[], field: string): string[] {
  const unused = [...stored];
  const keys = entriesOf(submitted).map(({ entry, index }) => {
    if (!entry.startsWith(MASK_PREFIX)) return entry;
    const at = unused.findIndex((key) => maskKey(key) === entry);
    if (at === -1) throw fail(`${field}.${index} is a masked key that matches no stored key: send the whole key`);
    return unused.splice(at, 1)[0]!;
  });
  return unique(keys, (key) => key);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads one provider D entry: a plain URL, or a JSON-encoded `{ "url": ..., "model": ... }` (model optional). */
export function parseEndpoint(entry: string, at: string): ProviderDEndpoint {
  let url = entry;
  let model: string | undefined;
  if (entry.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(entry);
    } catch {
      throw fail(`${at} is not valid JSON: write {"url": "http://host:11434", "model": "llama3.2"} or a plain URL`);
    }
    if (!isRecord(parsed)) throw fail(`${at} must be a JSON object with url and model`);
    const extra = Object.keys(parsed).find((name) => name !== 'url' && name !== 'model');
    if (extra !== undefined) throw fail(`${at}.${extra} is not an accepted field (url, model)`);
    if (typeof parsed.url !== 'string' || parsed.url.trim() === '') throw fail(`${at}.url must be a non-empty string`);
    if (parsed.model !== undefined && (typeof parsed.model !== 'string' || parsed.model.trim() === '' || parsed.model.length > 200)) {
      throw fail(`${at}.model must be a model name of 1 to 200 characters`);
    }
    url = parsed.url.trim();
    model = (parsed.model as string | undefined)?.trim();
  }
  if (!URL.canParse(url)) throw fail(`${at} is not a URL: write it like http://host:11434`);
  return model === undefined ? { url, entry } : { url, model, entry };
}

/** AI provider keys without HTTP. Slots A to C are secret (masked); D endpoints are shown whole. */
export function createAiKeyService(settings: TypedSettings, guard: OutboundGuard) {
  const stored = async () => (await settings.get(KEY)) ?? {};

  const view = (keys: StoredAiProviderKeys, slot: AiSlot): string[] =>
    slot === 'providerD' ? (keys.providerD ?? []).map((endpoint) => endpoint.entry) : (keys[slot] ?? []).map(maskKey);

  async function endpoints(submitted: string[], field: string): Promise<ProviderDEndpoint[]> {
    const parsed = entriesOf(submitted).map(({ entry, index }) => ({ index, endpoint: parseEndpoint(entry, `${field}.${index}`) }));
    for (const { index, endpoint } of parsed) {
      try {
        await guard.check(endpoint.url, { errorAs: Errors.INVALID_URL });
      } catch (error) {
        throw Errors.INVALID_URL.is(error) ? Errors.INVALID_URL({ reason: `${field}.${index}: ${error.message}` }) : error;
      }
    }
    return unique(parsed.map(({ endpoint }) => endpoint), (endpoint) => endpoint.entry);
  }

  return {
    /** The slot's entries as answered. */
    async get(slot: AiSlot): Promise<string[]> {
      return view(await stored(), slot);
    },

    /** Replaces the slot's list (all or nothing) and answers it as `get` does. */
    async save(slot: AiSlot, submitted: string[], field: string): Promise<string[]> {
      if (slot === 'providerD') {
        const list = await endpoints(submitted, field);
        return view(await settings.update(KEY, (current) => ({ ...current, providerD: list })), slot);
      }
      const next = await settings.update(KEY, (current) => ({
        ...current,
        [slot]: resolveKeys(submitted, current?.[slot] ?? [], field),
      }));
      return view(next, slot);
    },
  };
}
