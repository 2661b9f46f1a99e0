/** Secrets that cannot be read or written with the keys at hand; the message says what to do. */
export class SecretsError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SecretsError';
  }
}
