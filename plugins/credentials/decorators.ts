// The decorators this plugin adds, typed for every plugin by declaration merging.

/** Output targets reached through stored credentials (`app.outputs`, registered as `taskloom-outputs`). */
export interface Outputs {
  /**
   * Appends `rows` (field name -> value) to table `tableId` of the product credential `credentialId` points
   * at, batching as the product requires. Resolves to the number of rows written.
   * Throws CREDENTIAL_NOT_FOUND; INVALID_BASE_URL when the stored base URL no longer passes the outbound rule;
   * VALIDATION_ERROR when `tableId` is not a whole number or the credential's provider is not installed;
   * UPSTREAM_ERROR (`retryable` set for 429, 5xx, network errors and timeouts) when the product fails.
   * Never logs or reports the token.
   */
  push(credentialId: string, tableId: number | string, rows: Record<string, unknown>[]): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    outputs: Outputs;
  }
}
