import pg from 'pg';

/**
 * The health check's own connection, apart from the pool: a check must not queue behind queries stuck on a
 * silent peer, and must see the server again as soon as it answers. One connection, opened when needed; one
 * that fails or does not answer in time is destroyed, and `onFailure` hears of it (the pool's connections
 * went the same way).
 */
export class HealthProbe {
  private readonly pool: pg.Pool;

  constructor(config: pg.PoolConfig, private readonly onFailure: (error: unknown) => void) {
    this.pool = new pg.Pool({ ...config, max: 1 });
    // A failing idle probe connection is simply replaced by the next check.
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  /** Resolves once `SELECT 1` answered within `timeoutMs`; rejects with the driver's error otherwise. */
  async run(timeoutMs: number): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query({ text: 'SELECT 1', query_timeout: timeoutMs } as pg.QueryConfig);
      client.release();
    } catch (error) {
      client.release(error instanceof Error ? error : new Error(String(error)));
      client.connection?.stream?.destroy();
      this.onFailure(error);
      throw error;
    }
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
