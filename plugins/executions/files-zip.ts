// A run's files as one ZIP: its screenshots and recordings under their capture names, its downloads under
// `downloads/` with the names the sites gave them (a second file of the same name gets its number in front).
// Streamed: each capture is opened only when yazl reaches it, so a large run holds one file open at a time.
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Captures } from '../data/decorators.js';

/** The ZIP of every capture of the execution (never its trace), as a stream. */
export async function filesZip(captures: Captures, executionId: string): Promise<Readable> {
  const files = await captures.list({ runId: executionId });
  const zip = new yazl.ZipFile();
  const used = new Set<string>();
  for (const capture of [...files].reverse()) { // oldest first: the order they were taken in
    let entry = capture.fileName === undefined ? capture.name : `downloads/${capture.fileName}`;
    if (used.has(entry)) entry = `downloads/${capture.name.slice(executionId.length + 1).split('.')[0]}-${capture.fileName}`;
    used.add(entry);
    zip.addReadStreamLazy(entry, { mtime: new Date(capture.modified), size: capture.size }, (done) => {
      captures.open(capture.name).then(
        (opened) => (opened ? done(null, opened.stream) : done(new Error(`capture ${capture.name} was deleted meanwhile`), undefined as never)),
        (error: Error) => done(error, undefined as never),
      );
    });
  }
  zip.end();
  const output = zip.outputStream as Readable;
  zip.on('error', (error: Error) => output.destroy(error)); // a capture that failed to open ends the reply early
  return output;
}
