// Backpressure: past the high-water mark the broker stops reading from device sockets (TCP pushes back on the
// devices), and reads resume once the writer has caught up below the low-water mark (the points held for compaction
// count too once far more than a round's worth wait: the writer's `backlog`). Shedding (QoS 0 beyond the queue bound)
// is then the last resort, and the event loop keeps time for HTTP and socket.io.
import type { Broker } from '../../../platform/mqtt/types.js';

/** how often a paused broker checks whether the writer caught up */
const RESUME_CHECK_MS = 5;

export class Backpressure {
  /** times reads were paused */
  pauses = 0;
  private readonly highWater: number;
  private readonly lowWater: number;
  private pausable: Pick<Broker, 'setReadPaused'> | undefined;
  private resumeCheck: NodeJS.Timeout | undefined;

  /** `maxQueued`: the writer's queue bound (pause at half of it, resume below an eighth) */
  constructor(
    private readonly backlog: () => number,
    maxQueued: number,
    private readonly closed: () => boolean,
  ) {
    this.highWater = Math.floor(maxQueued / 2);
    this.lowWater = Math.floor(maxQueued / 8);
  }

  /** the broker whose reads pause */
  attach(broker: Pick<Broker, 'setReadPaused'>) {
    this.pausable = broker;
  }

  get paused() {
    return this.resumeCheck !== undefined;
  }

  /** after each queued message: pauses the broker's reads when the writer is past the high-water mark */
  relieve() {
    if (!this.pausable || this.resumeCheck || this.backlog() <= this.highWater) return;
    this.pausable.setReadPaused(true);
    this.pauses++;
    this.resumeCheck = setInterval(() => {
      if (this.backlog() > this.lowWater && !this.closed()) return;
      this.stopChecking();
      this.pausable?.setReadPaused(false);
    }, RESUME_CHECK_MS);
  }

  /** closing: reads resume (the broker closes on its own) and the check stops */
  close() {
    this.stopChecking();
    this.pausable?.setReadPaused(false);
  }

  private stopChecking() {
    clearInterval(this.resumeCheck);
    this.resumeCheck = undefined;
  }
}
