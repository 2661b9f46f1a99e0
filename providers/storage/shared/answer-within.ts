import { Errors } from '../../../kernel/errors.js';

/**
 * The health check of the database providers: resolves when `probe` answers within `timeoutMs`,
 * rejects with a retryable STORAGE_UNAVAILABLE giving `lateReason` when it does not, and with the
 * probe's own error when it fails first.
 */
export async function answerWithin(probe: () => Promise<unknown>, timeoutMs: number, lateReason: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Errors.STORAGE_UNAVAILABLE({ reason: lateReason }, { retryable: true })), timeoutMs);
  });
  try {
    await Promise.race([probe(), late]);
  } finally {
    clearTimeout(timer);
  }
}
