import { lowMemoryRequested } from '../kernel/config.js';
import { tuneRuntime } from './runtime-tuning.js';

// Imported first by the entry point (app/main.ts): with LOW_MEMORY=true, applies the small-machine tuning
// before anything else loads. A bad LOW_MEMORY value is reported by the configuration check that follows.
let requested = false;
try {
  requested = lowMemoryRequested();
} catch {
  requested = false;
}
if (requested) tuneRuntime(process.execArgv, process.env.NODE_OPTIONS);
