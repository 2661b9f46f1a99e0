import { setTimeout as sleep } from 'node:timers/promises';
import { machineUsage } from './cpu-usage.js';

export interface Side {
  /** One run: its wall time, or undefined when it failed. */
  run(): Promise<number | undefined>;
}

export interface InterleavedResult {
  a: { times: number[]; failures: number };
  b: { times: number[]; failures: number };
  /** Cores the whole machine kept busy meanwhile, both sides and the pauses included. */
  busyCores: number;
}

/**
 * `runs` runs of each side, one at a time, alternating which goes first, with a pause after each so that work
 * one side leaves in the background (the service making its next warm context, a collection) is done before the
 * other side's run starts. Both sides then see the same machine: on a machine other work loads, figures measured
 * one phase after the other differ by more than the difference being measured.
 */
export async function runInterleaved(a: Side, b: Side, runs: number, pauseMs: number): Promise<InterleavedResult> {
  const result: InterleavedResult = { a: { times: [], failures: 0 }, b: { times: [], failures: 0 }, busyCores: 0 };
  const usage = machineUsage();
  const once = async (side: Side, into: { times: number[]; failures: number }) => {
    const ms = await side.run();
    if (ms === undefined) into.failures++;
    else into.times.push(ms);
    await sleep(pauseMs);
  };
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      await once(a, result.a);
      await once(b, result.b);
    } else {
      await once(b, result.b);
      await once(a, result.a);
    }
  }
  result.busyCores = usage.stop();
  return result;
}
