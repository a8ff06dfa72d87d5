/** A FIFO with O(1) shift (arrays' shift is O(n)): the space of taken items is given back once they are most of it. */
export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  get length() {
    return this.items.length - this.head;
  }
  push(v: T) {
    this.items.push(v);
  }
  /** the oldest item, left in place */
  peek(): T | undefined {
    return this.items[this.head];
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const v = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return v;
  }
}
