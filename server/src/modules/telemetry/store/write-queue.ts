// The writer's queue: device messages wait here for their batch, QoS 1 first (the broker acknowledged them). Memory is
// bounded whatever the devices do: past the soft bound QoS 0 messages are shed oldest first, past the hard bound the
// newest message is refused. A message counts (points plus states) from its arrival until its batch settles.
import { Fifo } from '../../../platform/fifo.js';
import type { TelemetryMessage } from '../message.js';

export interface QueueBounds {
  /** soft bound: beyond it QoS 0 messages are shed, oldest first */
  maxQueuedPoints: number;
  /** hard bound (QoS 1 included): beyond it the newest message is refused */
  hardMaxQueuedPoints: number;
}

/** what a message weighs in the queue: its points and its state reports */
export const weightOf = (m: TelemetryMessage) => m.points.length + m.states.length;

export class WriteQueue {
  private readonly qos0 = new Fifo<TelemetryMessage>();
  private readonly qos1 = new Fifo<TelemetryMessage>();
  /** points and states waiting, in flight included (what memory holds) */
  points = 0;
  maxPoints = 0;
  shedQos0Points = 0;
  refusedPoints = 0;

  constructor(private readonly bounds: QueueBounds) {}

  /** messages waiting for a batch (not those in flight) */
  get messages() {
    return this.qos0.length + this.qos1.length;
  }

  get pressured() {
    return this.points > this.bounds.maxQueuedPoints;
  }

  /** Queues a message, shedding QoS 0 messages to make room; 'refused' when even that leaves it past its bound. */
  offer(m: TelemetryMessage): 'queued' | 'refused' {
    const w = weightOf(m);
    if (w === 0) return 'queued';
    const { maxQueuedPoints, hardMaxQueuedPoints } = this.bounds;
    if (this.points + w > maxQueuedPoints) {
      while (this.qos0.length > 0 && this.points + w > maxQueuedPoints) {
        const old = weightOf(this.qos0.shift()!);
        this.points -= old;
        this.shedQos0Points += old;
      }
      if (this.points + w > (m.qos > 0 ? hardMaxQueuedPoints : maxQueuedPoints)) {
        this.refusedPoints += w;
        return 'refused';
      }
    }
    this.push(m);
    this.points += w;
    if (this.points > this.maxPoints) this.maxPoints = this.points;
    return 'queued';
  }

  /** The next batch's messages: QoS 1 first, until `maxPoints` are taken (they still count until `settled`). */
  take(maxPoints: number): { messages: TelemetryMessage[]; weight: number } {
    const messages: TelemetryMessage[] = [];
    let weight = 0;
    for (const q of [this.qos1, this.qos0]) {
      while (q.length > 0 && weight < maxPoints) {
        const m = q.shift()!;
        messages.push(m);
        weight += weightOf(m);
      }
    }
    return { messages, weight };
  }

  /** A batch's messages wait again (its transaction failed; order inside a batch does not matter, the store sorts). */
  requeue(messages: readonly TelemetryMessage[]) {
    for (const m of messages) this.push(m);
  }

  /** A batch settled (stored or given up): its weight leaves memory. */
  settled(weight: number) {
    this.points -= weight;
  }

  private push(m: TelemetryMessage) {
    (m.qos > 0 ? this.qos1 : this.qos0).push(m);
  }
}
