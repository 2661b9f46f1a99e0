import { readFileSync } from 'node:fs';

/** taskloom's version from its package.json, found above this file both in cli/ and in dist/cli/. */
export function taskloomVersion(): string {
  for (const up of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'taskloom' && pkg.version) return pkg.version;
    } catch {
      // not there: try one level up
    }
  }
  return '0.0.0';
}
