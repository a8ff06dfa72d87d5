// MQTT topic filters held as a trie of levels ('+' one level, '#' the rest), counted so the same filter can be added
// by several holders: whether any filter matches a topic costs one walk of the topic's levels, however many filters.

interface Node {
  children: Map<string, Node>;
  /** filters ending here */
  count: number;
}

const node = (): Node => ({ children: new Map(), count: 0 });

export class TopicFilters {
  private root = node();
  size = 0;

  /** `changed` hears of a filter held for the first time (added) or no longer held at all */
  constructor(private readonly changed?: (filter: string, added: boolean) => void) {}

  add(filter: string): void {
    let n = this.root;
    for (const level of filter.split('/')) {
      let next = n.children.get(level);
      if (!next) n.children.set(level, (next = node()));
      n = next;
    }
    n.count++;
    this.size++;
    if (n.count === 1) this.changed?.(filter, true);
  }

  /** removes one count of `filter` (a filter never added is ignored) */
  remove(filter: string): void {
    const path: [Node, string][] = [];
    let n: Node | undefined = this.root;
    for (const level of filter.split('/')) {
      const next: Node | undefined = n.children.get(level);
      if (!next) return;
      path.push([n, level]);
      n = next;
    }
    if (n.count === 0) return;
    n.count--;
    this.size--;
    if (n.count === 0) this.changed?.(filter, false);
    // prune the branch that no longer holds anything
    for (let i = path.length - 1; i >= 0; i--) {
      const [parent, level] = path[i]!;
      const child = parent.children.get(level)!;
      if (child.count > 0 || child.children.size > 0) break;
      parent.children.delete(level);
    }
  }

  /** whether any filter matches `topic` (topics starting with '$' are matched only by filters naming '$' levels) */
  matches(topic: string): boolean {
    if (this.size === 0) return false;
    return this.walk(this.root, topic.split('/'), 0, topic.startsWith('$'));
  }

  private walk(n: Node, levels: string[], i: number, reserved: boolean): boolean {
    if (!(reserved && i === 0)) {
      const rest = n.children.get('#');
      if (rest && rest.count > 0) return true;
    }
    if (i === levels.length) return n.count > 0;
    const exact = n.children.get(levels[i]!);
    if (exact && this.walk(exact, levels, i + 1, reserved)) return true;
    const one = reserved && i === 0 ? undefined : n.children.get('+');
    return one !== undefined && this.walk(one, levels, i + 1, reserved);
  }
}
