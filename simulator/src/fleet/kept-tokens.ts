// Where the fleet's Sentra end devices keep their credentials token across runs, as a real device keeps it in its
// flash: the console shows a token once, so a device that forgot it could only be removed and added again (a new id,
// its history gone). One JSON file of serial → token, written whole (a temporary file renamed over it, owner-only) after
// each change; a missing or unreadable file is an empty one.
import fs from 'node:fs/promises';
import path from 'node:path';

export interface KeptTokens {
  get(serial: string): string | undefined;
  /** remembers `token` for `serial` (or forgets it: undefined); resolves once the file holds it */
  set(serial: string, token: string | undefined): Promise<void>;
}

const TOKEN = /^[0-9a-f]{64}$/;

/** the tokens kept in `file`, or none kept at all (`file` undefined: every run registers its token devices anew) */
export async function keptTokens(file: string | undefined): Promise<KeptTokens> {
  const tokens = new Map<string, string>();
  if (file === undefined) return { get: () => undefined, set: async () => undefined };
  try {
    const saved = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
    if (saved && typeof saved === 'object')
      for (const [serial, token] of Object.entries(saved))
        if (typeof token === 'string' && TOKEN.test(token)) tokens.set(serial, token);
  } catch {
    // first run, or a file nobody can use: the devices get new tokens
  }
  let writing: Promise<void> = Promise.resolve();
  const write = async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(Object.fromEntries(tokens), null, 2), { mode: 0o600 });
    await fs.rename(tmp, file);
  };
  return {
    get: (serial) => tokens.get(serial),
    set(serial, token) {
      if (token === undefined) tokens.delete(serial);
      else tokens.set(serial, token);
      // one write at a time, each of the whole map as it is then
      writing = writing.then(write, write);
      return writing;
    },
  };
}
