import { announce } from '../components/dialogs';

/** Copies `text` to the clipboard and says so (or says to copy by hand when the browser refuses). */
export async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    announce(`${what} copied`);
  } catch {
    announce(`Copying failed: select the ${what.toLowerCase()} and copy it by hand`);
  }
}
