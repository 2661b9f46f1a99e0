import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/** How two screenshots differ: the share of differing pixels, and an image that shows where. */
export interface ScreenshotDiff {
  /** Differing pixels as a share (percent, 0 to 100) of the larger image's pixels, rounded to 3 decimals. */
  differentPct: number;
  /** Different sizes: `1280x720 → 1280x900`. The area only one image covers counts as different. */
  sizes?: string;
  /** A PNG the size of the larger image: the new screenshot faded, differing pixels red, the uncovered area magenta. */
  image: Buffer;
}

/** The area one screenshot covers and the other does not, in the diff image. */
const UNCOVERED: [number, number, number] = [255, 0, 255];

/**
 * Compares two PNG screenshots with pixelmatch. `pixelThreshold` (0 to 1) is pixelmatch's per-pixel colour
 * tolerance (0.1 by default; anti-aliasing is not counted). Screenshots of different sizes are compared on the
 * area both cover (from the top left), and the rest counts as different. Throws when either is not a PNG.
 */
export function diffScreenshots(before: Buffer, after: Buffer, pixelThreshold = 0.1): ScreenshotDiff {
  const a = PNG.sync.read(before);
  const b = PNG.sync.read(after);
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const common = { width: Math.min(a.width, b.width), height: Math.min(a.height, b.height) };
  const out = new PNG({ width, height });
  let different: number;
  if (a.width === b.width && a.height === b.height) {
    different = pixelmatch(a.data, b.data, out.data, width, height, { threshold: pixelThreshold });
  } else {
    const overlap = new Uint8Array(common.width * common.height * 4);
    different = pixelmatch(crop(a, common), crop(b, common), overlap, common.width, common.height, { threshold: pixelThreshold });
    out.data.fill(0);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const at = (y * width + x) * 4;
        if (x < common.width && y < common.height) {
          out.data.set(overlap.subarray((y * common.width + x) * 4, (y * common.width + x) * 4 + 4), at);
        } else {
          out.data.set(UNCOVERED, at);
          out.data[at + 3] = 255;
        }
      }
    }
    different += width * height - common.width * common.height;
  }
  const total = width * height;
  return {
    differentPct: total === 0 ? 0 : Math.round((different / total) * 100_000) / 1000,
    ...(a.width === b.width && a.height === b.height ? {} : { sizes: `${a.width}x${a.height} → ${b.width}x${b.height}` }),
    image: PNG.sync.write(out),
  };
}

/** The top-left `size` of an image, as RGBA bytes. */
function crop(image: PNG, size: { width: number; height: number }): Uint8Array {
  const rows = new Uint8Array(size.width * size.height * 4);
  for (let y = 0; y < size.height; y++) {
    rows.set(image.data.subarray(y * image.width * 4, (y * image.width + size.width) * 4), y * size.width * 4);
  }
  return rows;
}
