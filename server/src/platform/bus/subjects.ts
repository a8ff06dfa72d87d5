// Subject rules shared by both bus implementations, and the subscription index (a token trie) the memory bus matches
// with, so a publish costs the depth of the subject rather than the number of subscriptions.
const TOKEN = /^[^\s.*>]+$/;
/** the same rule over a whole publish subject in one test (a publish per device message checks it) */
const PUBLISH_SUBJECT = /^[^\s.*>]+(?:\.[^\s.*>]+)*$/;

/** A publish subject: non-empty tokens, no wildcards, no whitespace. Programming errors throw. */
export function assertPublishSubject(subject: string): void {
  if (typeof subject !== 'string' || !PUBLISH_SUBJECT.test(subject))
    throw new Error(`invalid bus subject "${subject}"`);
}

/** A subscription subject: tokens or `*`, and `>` only as the last token. */
export function assertSubscribeSubject(subject: string): void {
  const tokens = typeof subject === 'string' ? subject.split('.') : [''];
  const ok = tokens.every((t, i) => TOKEN.test(t) || t === '*' || (t === '>' && i === tokens.length - 1));
  if (!ok) throw new Error(`invalid bus subscription subject "${subject}"`);
}

interface TrieNode<S> {
  children: Map<string, TrieNode<S>>;
  /** subscriptions ending exactly here */
  here: Set<S>;
  /** subscriptions ending with `>` here */
  tail: Set<S>;
}

const node = <S>(): TrieNode<S> => ({ children: new Map(), here: new Set(), tail: new Set() });
// one entry per subject published: `tele.<app>.<device>` for every device of a 10,000-device fleet stays cached
const CACHE_LIMIT = 32_768;

/**
 * Subscriptions by subject. What a subject matches is worked out once and kept, as `derive` makes it of the matching
 * subscriptions (by default the list itself; the memory bus keeps how a message is handed to them).
 */
export class SubjectIndex<S, M = S[]> {
  private root = node<S>();
  private cache = new Map<string, M>();

  constructor(private readonly derive: (matched: S[]) => M = (matched) => matched as M) {}

  add(subject: string, sub: S): void {
    this.forget(subject);
    let at = this.root;
    for (const token of subject.split('.')) {
      if (token === '>') {
        at.tail.add(sub);
        return;
      }
      let next = at.children.get(token);
      if (!next) at.children.set(token, (next = node<S>()));
      at = next;
    }
    at.here.add(sub);
  }

  remove(subject: string, sub: S): void {
    this.forget(subject);
    const path: Array<[TrieNode<S>, string]> = [];
    let at: TrieNode<S> | undefined = this.root;
    for (const token of subject.split('.')) {
      if (token === '>') {
        at.tail.delete(sub);
        break;
      }
      path.push([at, token]);
      at = at.children.get(token);
      if (!at) return;
    }
    if (!subject.endsWith('>')) at.here.delete(sub);
    // prune empty branches so a churn of short-lived subjects (request inboxes) does not grow the trie
    for (let i = path.length - 1; i >= 0; i--) {
      const [parent, token] = path[i];
      const child = parent.children.get(token)!;
      if (child.here.size || child.tail.size || child.children.size) break;
      parent.children.delete(token);
    }
  }

  /** what a subscription to `subject` changes: only its own subject's match when it has no wildcard (a request's
   * inbox comes and goes without the matches of every other subject worked out again) */
  private forget(subject: string): void {
    if (subject.includes('*') || subject.includes('>')) this.cache.clear();
    else this.cache.delete(subject);
  }

  match(subject: string): M {
    const cached = this.cache.get(subject);
    if (cached !== undefined) return cached;
    const out: S[] = [];
    this.collect(this.root, subject.split('.'), 0, out);
    const derived = this.derive(out);
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(subject, derived);
    return derived;
  }

  /** whether what `subject` matches is kept (it was matched since the subscriptions it depends on last changed) */
  knows(subject: string): boolean {
    return this.cache.has(subject);
  }

  private collect(at: TrieNode<S>, tokens: string[], i: number, out: S[]): void {
    if (i < tokens.length) for (const s of at.tail) out.push(s);
    if (i === tokens.length) {
      for (const s of at.here) out.push(s);
      return;
    }
    const exact = at.children.get(tokens[i]);
    if (exact) this.collect(exact, tokens, i + 1, out);
    const star = at.children.get('*');
    if (star) this.collect(star, tokens, i + 1, out);
  }
}

/**
 * A name for one publisher on the bus, unique across gateways and across the gateways one process may run (tests):
 * what a subscriber compares to skip the changes it published itself.
 */
export const newOrigin = (): string => `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
