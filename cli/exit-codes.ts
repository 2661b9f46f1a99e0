/** Exit codes scripts can rely on; `taskloom --help` lists them. */
export const ExitCode = {
  ok: 0,
  /** The command worked but what it reports failed: a run ended other than `success`, a migration stopped. */
  failed: 1,
  /** Bad arguments or options. */
  usage: 2,
  /** The service could not be reached, or refused the credentials. */
  unreachable: 3,
  /** The named task or execution does not exist. */
  notFound: 4,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
