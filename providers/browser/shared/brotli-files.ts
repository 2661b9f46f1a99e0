import { createReadStream, createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';

/** The part of tar-fs (the tar reader @sparticuz/chromium itself depends on) used here. */
export interface TarFs {
  extract(
    cwd: string,
    options: {
      chown?: boolean;
      strict?: boolean;
      ignore?: (name: string, header?: { name: string; type: string }) => boolean;
    },
  ): Writable;
}

/** Decompresses a Brotli file (`chromium.br`) into `dest`. */
export async function inflateBrotli(source: string, dest: string, mode: number): Promise<void> {
  await pipeline(createReadStream(source), createBrotliDecompress(), createWriteStream(dest, { mode }));
}

/**
 * Unpacks a Brotli-compressed tar (`al2023.tar.br`) into `dir`. Only plain files and folders are written,
 * never outside `dir` (tar-fs anchors every name there), owned by this process's user; `keep` filters by name.
 */
export async function extractBrotliTar(
  tarFs: TarFs,
  source: string,
  dir: string,
  keep: (name: string) => boolean = () => true,
): Promise<void> {
  const extract = tarFs.extract(dir, {
    chown: false,
    // Links and devices: none in these archives, and nothing this code would want.
    strict: false,
    ignore: (_name, header) => !header || !['file', 'directory'].includes(header.type) || !keep(header.name),
  });
  await pipeline(createReadStream(source), createBrotliDecompress(), extract);
}
