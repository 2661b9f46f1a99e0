import { tuneRuntime } from './runtime-tuning.js';

// Imported first by the entry point (kernel/main.ts): applies the process-wide tuning before anything else loads.
tuneRuntime(process.execArgv, process.env.NODE_OPTIONS);
