/**
 * The part of the Avro schema language (https://avro.apache.org/docs/1.11.1/specification/) our schemas use.
 * Plain data, so the schemas stay readable as `.avsc` JSON and the kernel needs no Avro library.
 */
export type AvroType = string | AvroRecord | AvroArray | AvroType[];

export interface AvroArray {
  type: 'array';
  items: AvroType;
}

export interface AvroField {
  name: string;
  type: AvroType;
  doc?: string;
  /** What a reader fills in when the writer's schema has no such field. */
  default?: unknown;
  /** Earlier names of the field: a reader matches the writer's field by any of them. */
  aliases?: string[];
}

export interface AvroRecord {
  type: 'record';
  name: string;
  namespace?: string;
  doc?: string;
  aliases?: string[];
  fields: AvroField[];
}
