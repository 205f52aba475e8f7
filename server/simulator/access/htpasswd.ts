/**
 * The HTPasswd identity provider: users and bcrypt hashes in Apache's htpasswd format, as OpenShift's HTPasswd
 * provider reads them (`htpasswd -B`). Without a file, the embedded users get random passwords for this process.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import bcrypt from 'bcryptjs';
import { EMBEDDED_USERS } from './access-seed';

/** Thrown for an htpasswd file that cannot be used; names the file and line. */
export class HtpasswdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HtpasswdError';
  }
}

/** Users and their bcrypt hashes. */
export class Htpasswd {
  private constructor(private readonly hashes: ReadonlyMap<string, string>) {}

  /** Parses htpasswd text; only bcrypt entries (`$2y$`, `$2a$`, `$2b$`) are accepted, as OpenShift's provider does. */
  static parse(text: string, source = 'htpasswd'): Htpasswd {
    const hashes = new Map<string, string>();
    text.split(/\r?\n/).forEach((raw, index) => {
      const line = raw.trim();
      if (!line || line.startsWith('#')) return;
      const colon = line.indexOf(':');
      if (colon <= 0) throw new HtpasswdError(`${source}:${index + 1}: expected "user:hash"`);
      const hash = line.slice(colon + 1);
      if (!/^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/.test(hash)) {
        throw new HtpasswdError(
          `${source}:${index + 1}: user "${line.slice(0, colon)}" does not have a bcrypt hash (create it with htpasswd -B)`,
        );
      }
      hashes.set(line.slice(0, colon), hash);
    });
    if (hashes.size === 0) throw new HtpasswdError(`${source}: no users`);
    return new Htpasswd(hashes);
  }

  /** Reads an htpasswd file. */
  static fromFile(path: string): Htpasswd {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new HtpasswdError(`cannot read htpasswd file ${path}: ${(error as Error).message}`);
    }
    return Htpasswd.parse(text, path);
  }

  /** The embedded users with the given passwords (hashed here, cost 10). */
  static of(passwords: Readonly<Record<string, string>>): Htpasswd {
    return new Htpasswd(
      new Map(Object.entries(passwords).map(([user, password]) => [user, bcrypt.hashSync(password, 10)])),
    );
  }

  /** True when `user` exists and `password` matches its hash. */
  verify(user: string, password: string): boolean {
    const hash = this.hashes.get(user);
    // bcryptjs reads $2y$ like $2b$ (same algorithm; PHP's name for the fixed variant).
    return !!hash && bcrypt.compareSync(password, hash.replace(/^\$2y\$/, '$2b$'));
  }

  get users(): string[] {
    return [...this.hashes.keys()];
  }
}

let processUsers: { htpasswd: Htpasswd; announce: string } | undefined;

/**
 * The identity provider every embedded cluster of this process uses: the file given, or the embedded users with
 * random passwords. Returns the line to print so the person starting it can log in.
 */
export function configureProcessUsers(file?: string): string {
  if (file) {
    const htpasswd = Htpasswd.fromFile(file);
    processUsers = { htpasswd, announce: `login: users ${htpasswd.users.join(', ')} from ${file}` };
  } else {
    const passwords = Object.fromEntries(
      EMBEDDED_USERS.map(({ user }) => [user, randomBytes(9).toString('base64url')]),
    );
    processUsers = {
      htpasswd: Htpasswd.of(passwords),
      announce: `login: ${Object.entries(passwords)
        .map(([user, password]) => `${user} / ${password}`)
        .join(', ')}`,
    };
  }
  return processUsers.announce;
}

/** The process's identity provider (random passwords if none was configured yet). */
export function processHtpasswd(): Htpasswd {
  if (!processUsers) configureProcessUsers();
  return processUsers!.htpasswd;
}
