// The one wizard in progress of a kind, held while its steps move between routes (the role, rule and device wizards):
// a wizard is continued while it is active and still the one asked for, else the held one is stopped and a new one
// started. `historyWizardStore` is the kind whose steps carry the wizard's id in the history state, so a step reached
// through the wizard (or the browser's back button) continues it and a step reached from anywhere else starts a new
// one; a new wizard is tied to the history entry that opened it until its id is in the history state, so a re-render
// or a remount of that same entry continues it too.
import { createActor, type ActorRefFrom, type AnyActorLogic, type AnyActorRef, type InputFrom } from 'xstate';

interface Held<A extends AnyActorRef, Tag> {
  actor: A;
  tag: Tag;
  /** undone when the wizard is let go (a subscription) */
  cleanup?(): void;
}

/** Holds one actor: `obtain` continues it while `reuse` says so and it is active, else starts another. */
export function createWizardHolder<A extends AnyActorRef, Tag>() {
  let held: Held<A, Tag> | null = null;
  /** Stops the held wizard (only if it is the one `tag` names, when given). */
  const release = (tag?: Tag) => {
    if (!held || (tag !== undefined && held.tag !== tag)) return;
    held.cleanup?.();
    held.actor.stop();
    held = null;
  };
  const obtain = (reuse: (tag: Tag) => boolean, start: () => Held<A, Tag>): Held<A, Tag> => {
    if (held && held.actor.getSnapshot().status === 'active' && reuse(held.tag)) return held;
    release();
    held = start();
    return held;
  };
  return { obtain, release };
}

export interface HeldWizard<A extends AnyActorRef> {
  id: string;
  /** which wizard: 'add' or 'edit:{id}' */
  key: string;
  actor: A;
  /** the history entry (location.key) that started it */
  origin: string;
}

/** The store of a wizard continued through the history state's id (`prefix` starts the ids it hands out). */
export function historyWizardStore<Logic extends AnyActorLogic>(prefix: string, defaultMachine: Logic) {
  type A = ActorRefFrom<Logic>;
  const holder = createWizardHolder<A, HeldWizard<A>>();
  let seq = 0;
  /**
   * The wizard `carried` (the history state's id) names if it is still in progress; without one, the wizard this
   * same history entry started; else a new one.
   */
  const obtainWizard = (
    key: string,
    carried: string | undefined,
    entry: string,
    input: InputFrom<Logic>,
    machine: Logic = defaultMachine,
  ): HeldWizard<A> =>
    holder.obtain(
      (h) => h.key === key && (carried ? h.id === carried : h.origin === entry),
      () => {
        const actor = createActor(machine, { input }).start() as A;
        const tag = { id: `${prefix}-${Date.now().toString(36)}-${++seq}`, key, actor, origin: entry };
        return { actor, tag };
      },
    ).tag;
  const releaseWizard = (h: HeldWizard<A>) => holder.release(h);
  return { obtainWizard, releaseWizard };
}
