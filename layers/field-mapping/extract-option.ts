import { Type, type Static } from 'typebox';

/** The types a field's value may be turned into (apply-mapping.ts); absent: the text as it is (normalised). */
export const FIELD_TYPES = ['text', 'number', 'date', 'url'] as const;

export const ExtractField = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'the key of the value in each row' }),
  selector: Type.Optional(Type.String({ maxLength: 1000, description: 'CSS selector relative to the row (first match); absent or empty: the row itself' })),
  attribute: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'read this attribute instead of the text' })),
  type: Type.Optional(Type.Enum([...FIELD_TYPES], { description: "text (default), number, date (ISO 8601) or url (resolved against the page's URL)" })),
}, { additionalProperties: false });
export type ExtractField = Static<typeof ExtractField>;

/**
 * The task option `extract`: a field mapping, the alternative to an extraction script (README "Field mapping").
 * Outside the kernel's Task record, so the tasks plugin adds it to the bodies it validates.
 */
export const ExtractOption = Type.Object({
  list: Type.Optional(Type.String({ maxLength: 1000, description: 'CSS selector of the rows: data is an array of row objects; absent: one object from the page' })),
  fields: Type.Array(ExtractField, { minItems: 1, maxItems: 100 }),
}, { additionalProperties: false, description: 'a field mapping: result.data without writing a script (README: Field mapping)' });
export type ExtractOption = Static<typeof ExtractOption>;
