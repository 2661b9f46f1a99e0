import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb) / 1024;
}

/** Samples a process's RSS every `intervalMs` until stopped; resolves to the peak and the sample count. */
export function sampleRss(pid: number, intervalMs = 10): { stop(): { peakMb: number; samples: number } } {
  let peakMb = rssMb(pid);
  let samples = 1;
  const timer = setInterval(() => {
    peakMb = Math.max(peakMb, rssMb(pid));
    samples += 1;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      peakMb = Math.max(peakMb, rssMb(pid));
      return { peakMb, samples: samples + 1 };
    },
  };
}

export interface Download {
  status: number;
  ms: number;
  bytes: number;
  /** Line feeds in the body: the row count of NDJSON, rows + header of CSV without multi-line cells. */
  newlines: number;
}

/** GETs `url` and writes the body to /dev/null as it arrives, counting bytes and line feeds. */
export async function downloadToDevNull(url: string, headers: Record<string, string> = {}): Promise<Download> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  let bytes = 0;
  let newlines = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) newlines += 1;
      done(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(response.body! as never), count, fs.createWriteStream('/dev/null'));
  return { status: response.status, ms: performance.now() - started, bytes, newlines };
}
