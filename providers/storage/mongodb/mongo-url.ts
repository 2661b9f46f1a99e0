/**
 * MONGODB_URL carries the password and may list several hosts (which `new URL` refuses), so it is
 * taken apart by hand. Nothing this provider logs or throws may contain the password.
 */
const PATTERN = /^(mongodb(?:\+srv)?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(?:\/([^?#]*))?/;

export interface MongoUrlParts {
  /** The host list, without credentials: `db1:27017,db2:27017`. */
  hosts: string;
  /** The database named in the URL path, if any. */
  database?: string;
  /** Every spelling of the password (percent-encoded and decoded); empty when there is none. */
  secrets: string[];
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function parseMongoUrl(url: string): MongoUrlParts {
  const match = PATTERN.exec(url);
  if (!match) return { hosts: '(unparseable MONGODB_URL)', secrets: [] };
  const [, , userinfo = '', hosts, path = ''] = match;
  const colon = userinfo.indexOf(':');
  const raw = colon === -1 ? '' : userinfo.slice(colon + 1);
  const secrets = raw === '' ? [] : [...new Set([raw, decode(raw), encodeURIComponent(decode(raw))])].filter(Boolean);
  const database = decode(path) || undefined;
  return { hosts: hosts || 'localhost', database, secrets };
}

/** `text` with every spelling of the password replaced by `***`. */
export function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}
