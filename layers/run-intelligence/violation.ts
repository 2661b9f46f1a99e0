/** One broken expectation: which rule, on which field (when one), in words, and a few rows that show it. */
export interface Violation {
  rule: 'schema' | 'minRows' | 'maxRows' | 'required' | 'drift';
  field?: string;
  message: string;
  examples: unknown[];
}
