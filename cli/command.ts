/** What every `taskloom` sub-command implements; `cli/main.ts` dispatches to them. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** The environment the command reads its defaults from (TASKLOOM_URL, TASKLOOM_API_KEY, DATA_DIR, ...). */
  readonly env: NodeJS.ProcessEnv;
}

export interface CliCommand {
  /** The words that select it, e.g. `['tasks', 'list']` or `['migrate']`. */
  readonly path: readonly string[];
  /** One line for the command list of `taskloom --help`. */
  readonly summary: string;
  /** The full text printed by `taskloom <command> --help`. */
  readonly help: string;
  /** Runs with the arguments after the command words; resolves to the process exit code (see exit-codes.ts). */
  run(args: string[], io: CliIo): Promise<number>;
}
