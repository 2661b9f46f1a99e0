import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { SettingsStore } from '../../kernel/contracts/storage.js';

/** The `storage.settings` key of the VNC password: generated once, the same for every instance and restart. */
export const VNC_PASSWORD_KEY = 'headful.vncPassword';

// VNC authentication reads 8 characters at most; no look-alikes (0/O, 1/l/I), as people type it by hand.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const LENGTH = 8;
const STOREPASSWD_MS = 10_000;

export function generateVncPassword(): string {
  return Array.from({ length: LENGTH }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join('');
}

/** The stored password, generated and stored on first use. */
export function vncPassword(settings: SettingsStore): Promise<string> {
  return settings.update<string>(VNC_PASSWORD_KEY, (current) =>
    typeof current === 'string' && current.length > 0 ? current : generateVncPassword());
}

/**
 * Writes the `-rfbauth` file x11vnc reads. x11vnc obfuscates it itself (with DES, which Node's OpenSSL no
 * longer offers); the password goes through its stdin, so it never shows in a process list.
 */
export async function writeRfbAuthFile(password: string, file: string, command = 'x11vnc'): Promise<void> {
  const child = spawn(command, ['-storepasswd', file], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  const timer = setTimeout(() => child.kill('SIGKILL'), STOREPASSWD_MS);
  const exit = new Promise<number | null>((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`Cannot run ${command} -storepasswd (apt-get install x11vnc): ${error.message}`)));
    child.once('close', (code) => resolve(code));
  });
  // Typed twice (password and check), then confirmed.
  child.stdin.end(`${password}\n${password}\ny\n`);
  try {
    const code = await exit;
    const written = await stat(file).then((info) => info.size > 0, () => false);
    if (code !== 0 || !written) throw new Error(`${command} -storepasswd failed (exit ${code}): ${lastLine(stderr)}`);
  } finally {
    clearTimeout(timer);
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).pop() ?? 'no output';
}
