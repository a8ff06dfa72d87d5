// The gateway's own publishes (commands, replies) go to every broker thread; each answers `published` once it has
// handed the message to its sessions. A publish settles when the last thread answered, fails on the first error, and
// fails when a thread it waits on is lost or the broker closes.

interface Pending {
  left: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class GatewayPublishes {
  private readonly pending = new Map<number, Pending>();
  private nextReq = 1;

  /** a publish to `threads` threads, sent by `send` under its request number; settles as they answer (a throwing
   * `send` rejects it) */
  open(threads: number, send: (req: number) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const req = this.nextReq++;
      this.pending.set(req, { left: threads, resolve, reject });
      send(req);
    });
  }

  /** a thread answered request `req` (with `error` if it could not publish); unknown requests are ignored */
  answered(req: number, error?: string) {
    const p = this.pending.get(req);
    if (!p) return;
    if (error) {
      this.pending.delete(req);
      p.reject(new Error(error));
    } else if (--p.left === 0) {
      this.pending.delete(req);
      p.resolve();
    }
  }

  /** every publish still waiting fails with `err` (a thread went, or the broker closed) */
  failAll(err: Error) {
    for (const [req, p] of this.pending) {
      this.pending.delete(req);
      p.reject(err);
    }
  }

  get size() {
    return this.pending.size;
  }
}
