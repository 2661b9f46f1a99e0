export const OUTPUT_CONTRACT_VERSION = 1;

export interface OutputLocation {
  id: number;
  name: string;
}

/** An output target (a table store, a spreadsheet, ...) reached with a stored credential's config. */
export interface OutputTarget {
  readonly id: string;
  /** Databases (or workspaces) visible to the credential. */
  listDatabases(config: Record<string, unknown>): Promise<OutputLocation[]>;
  listTables(config: Record<string, unknown>, databaseId: number): Promise<OutputLocation[]>;
  /** Appends rows to a table; batches as the product requires. Resolves to rows written. */
  push(config: Record<string, unknown>, tableId: number, rows: Record<string, unknown>[]): Promise<number>;
}
