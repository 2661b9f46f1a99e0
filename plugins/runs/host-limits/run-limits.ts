import type { HostResources } from './host-resources.js';

const MB = 1024 * 1024;

/** What a browser context of one run is taken to use until runs were measured: conservative (a heavy page). */
export const DEFAULT_RUN_MEMORY_MB = 512;

export interface RunLimitInput {
  resources: HostResources;
  /** Memory one run is expected to need (MB): the measured moving estimate, or the default. */
  perRunMb: number;
  /** Memory kept free of runs (MB): for the service itself, the browser's base, the OS. */
  reserveMb: number;
}

export interface ComputedRunLimit {
  /** Runs at once: the smaller of the CPU and memory bounds, at least 1, at most 1024. */
  limit: number;
  /** One run per CPU (a fraction of a CPU counts as one). */
  byCpu: number;
  /** (memory - reserve) / per-run memory. */
  byMemory: number;
  /** Plain words: how the limit came about. */
  explanation: string;
}

/** The default reserve: a quarter of the memory, at least 512 MB (capped at 4 GB). */
export function defaultReserveMb(memoryBytes: number): number {
  return Math.round(Math.min(4096, Math.max(512, memoryBytes / MB / 4)));
}

/** The default run concurrency of this host (pure: the caller reads the host and measures runs). */
export function computeRunLimit(input: RunLimitInput): ComputedRunLimit {
  const { memoryBytes, cpus } = input.resources;
  const byCpu = Math.max(1, Math.ceil(cpus.value));
  const spareMb = memoryBytes.value / MB - input.reserveMb;
  const byMemory = Math.max(0, Math.floor(spareMb / Math.max(1, input.perRunMb)));
  const limit = Math.min(1024, Math.max(1, Math.min(byCpu, byMemory)));
  const explanation = `min(${byCpu} by CPU (${cpus.value} from ${cpus.source}), ${byMemory} by memory `
    + `((${Math.round(memoryBytes.value / MB)} MB from ${memoryBytes.source} - ${input.reserveMb} MB reserve) / ${Math.round(input.perRunMb)} MB a run))`
    + (byMemory < 1 ? ', at least 1' : '');
  return { limit, byCpu, byMemory, explanation };
}
