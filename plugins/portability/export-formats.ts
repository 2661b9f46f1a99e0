import { Transform } from 'node:stream';
import type * as avroTypes from 'avsc';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import { avroSchemas, executionToAvro, SCHEMA_VERSION_METADATA } from './avro/index.js';
import { CSV_COLUMNS, csvRow } from './csv-columns.js';
import type { ExportFormatName } from './schemas.js';

export interface ExportFormat {
  contentType: string;
  extension: string;
  /**
   * The stages a stream of records is piped through: objects in, bytes out of the last one. The encoders'
   * libraries load on the first export that needs them, not with the service.
   */
  stages(): Promise<Transform[]>;
}

/** Records in, one JSON document a line out. */
const ndjson = async (): Promise<Transform[]> => [new Transform({
  writableObjectMode: true,
  transform(record: ExecutionRecord, _encoding, done) {
    done(null, `${JSON.stringify(record)}\n`);
  },
})];

/** Maps each object through `map` as a stream stage, so backpressure holds. */
const mapping = <I, O>(map: (input: I) => O) => new Transform({
  objectMode: true,
  transform(input: I, _encoding, done) {
    done(null, map(input));
  },
});

/** Records in, an Avro object container file out: the latest Execution schema, deflated blocks. */
async function avroFile(): Promise<Transform[]> {
  const { default: avro } = await import('avsc');
  const { latest, latestVersion } = avroSchemas.execution;
  const encoder = new avro.streams.BlockEncoder(latest as avroTypes.Schema, {
    codec: 'deflate',
    // An export without records is still a valid file: the header (with the schema) and no blocks.
    writeHeader: 'always',
    metadata: { [SCHEMA_VERSION_METADATA]: Buffer.from(String(latestVersion)) },
  } as Partial<avroTypes.EncoderOptions>);
  return [mapping(executionToAvro), encoder as unknown as Transform];
}

/** Records in, CSV with a header row out. */
async function csv(): Promise<Transform[]> {
  const { stringify } = await import('csv-stringify');
  return [mapping(csvRow), stringify({ header: true, columns: CSV_COLUMNS.map((column) => column.key) })];
}

export const EXPORT_FORMATS: Record<ExportFormatName, ExportFormat> = {
  ndjson: { contentType: 'application/x-ndjson; charset=utf-8', extension: 'ndjson', stages: ndjson },
  csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: 'csv', stages: csv },
  avro: { contentType: 'application/avro', extension: 'avro', stages: avroFile },
};
