/** The output contract's version (`major.minor`, see provider.ts), and the oldest a target may be built for. */
export const OUTPUT_CONTRACT_VERSION = '1.0';
export const OUTPUT_CONTRACT_ACCEPTS = '1.0';

/** A database (or workspace) or a table of an output target. */
export interface OutputLocation { id: number; name: string }

/**
 * What a stored credential hands its target: where the product's API lives and the secret that opens it.
 * Callers check `baseUrl` with the outbound guard before every use; targets still send every request through
 * `ProviderContext.outbound.client`, which checks each redirect hop too.
 */
export interface OutputCredentialConfig {
  /** Absolute http(s) URL of the product, e.g. `https://tables.example.com`; a trailing slash is ignored. */
  baseUrl: string;
  /** The product's access token. Never logged, never part of an error message or a response. */
  token: string;
}

/** Optional features of a target. */
export interface OutputCapabilities {
  /** `listDatabases` and `listTables` work. When false they throw VALIDATION_ERROR (push-only products). */
  browse: boolean;
}

/**
 * An output target (a table store, a spreadsheet, ...) reached with a stored credential's config.
 * Every method throws `Errors.UPSTREAM_ERROR({ reason })` when the product fails: a non-2xx answer, a network
 * error, a timeout, an answer it cannot read, or a redirect the outbound rule refuses. `reason` names the
 * product's status and error text and never the token; `retryable` is true for 429, 5xx, network errors and
 * timeouts (trying later may succeed) and false otherwise.
 */
export interface OutputTarget {
  /** The provider id, e.g. `tablestore`. */
  readonly id: string;
  readonly capabilities: OutputCapabilities;
  /** Databases (or workspaces) visible to the credential. */
  listDatabases(config: OutputCredentialConfig): Promise<OutputLocation[]>;
  /** Tables of one database. */
  listTables(config: OutputCredentialConfig, databaseId: number): Promise<OutputLocation[]>;
  /**
   * Appends `rows` (field name -> value) to a table, in order, split into as many requests as the product
   * requires. Resolves to the number of rows written; an empty `rows` sends nothing and resolves to 0.
   * A failure after some batches were written says in its reason how many rows were written.
   */
  push(config: OutputCredentialConfig, tableId: number, rows: Record<string, unknown>[]): Promise<number>;
}
