// The identity and authority questions the broker threads ask the event loop: who is this CONNECT (asked of the domain
// authorities in the order they were added, behind the connect throttle) and may this session publish or subscribe to
// this topic (asked of the authority that issued its identity). Kept apart from the session bookkeeping so that the
// rules of admission read in one place.
import type { Logger } from '../log.js';
import type { ConnectThrottle } from '../mqtt-connect-throttle.js';
import { reserved } from './broker-wire.js';
import { isRefusal, type BrokerAuthority, type MqttIdentity } from './types.js';

// CONNACK return codes of MQTT 3.1.1
export const SERVER_UNAVAILABLE = 3;
export const NOT_AUTHORIZED = 5;

/** an admitted client: its identity and the authority that issued it */
export interface Grant {
  identity: MqttIdentity;
  authority: BrokerAuthority;
}
export type Admission = Grant | { returnCode: number; message: string };
/** an authority's answer: a grant, or a refusal telling whether any authority knew the username */
type Identified = Grant | { returnCode: number; message: string; known?: boolean; notAGuess?: boolean };

export class AuthorityRelay {
  private readonly authorities: BrokerAuthority[] = [];

  constructor(
    private readonly log: Logger,
    /** the identity key of the session holding `clientId` now, if any (a client id is never taken over by another) */
    private readonly holderKey: (clientId: string) => string | undefined,
    private readonly throttle?: ConnectThrottle,
  ) {}

  add(authority: BrokerAuthority) {
    this.authorities.push(authority);
  }

  /**
   * `identify`, behind the throttle (mqtt-connect-throttle.ts): a (username, address) pair that kept failing is refused
   * before any authority is asked, a guessed username waits its turn; refusals count, and so does a client admitted
   * without credentials on its address.
   */
  async admit(
    clientId: string,
    username: string | undefined,
    password: Buffer | undefined,
    address: string | undefined,
  ): Promise<Admission> {
    const throttle = this.throttle;
    if (throttle && username) {
      const entry = await throttle.enter(username, address);
      if (!entry.go) return { returnCode: NOT_AUTHORIZED, message: 'too many failed CONNECTs for this username here' };
    }
    const r = await this.identify(clientId, username, password, address);
    if ('returnCode' in r) {
      // an authority that could not answer is our fault, not the client's
      if (throttle && r.returnCode !== SERVER_UNAVAILABLE && !r.notAGuess)
        await throttle.failed(username ?? '', address, r.known === true);
      return { returnCode: r.returnCode, message: r.message };
    }
    if (!throttle) return r;
    if (r.identity.provisional === true && !(await throttle.provisional(address)))
      return { returnCode: NOT_AUTHORIZED, message: 'too many clients without credentials from this address' };
    await throttle.succeeded(username!, address);
    return r;
  }

  private async identify(
    clientId: string,
    username: string | undefined,
    password: Buffer | undefined,
    address: string | undefined,
  ): Promise<Identified> {
    if (!username) return { returnCode: NOT_AUTHORIZED, message: 'anonymous clients are refused' };
    for (const authority of this.authorities) {
      let identity: MqttIdentity | null;
      try {
        const known = await authority.authenticate(clientId, username, password, address);
        // an authority that knows the client and refuses it ends the search (a wrong password is not "unknown")
        if (isRefusal(known)) return { returnCode: known.returnCode, message: known.message, known: true };
        identity = known;
        if (identity && typeof identity.key !== 'string') throw new Error('authority returned an identity without key');
      } catch (err) {
        this.log.error(`MQTT authority failed for client ${clientId}`, err);
        return { returnCode: SERVER_UNAVAILABLE, message: 'authentication unavailable' };
      }
      if (identity) {
        const owner = this.holderKey(clientId);
        if (owner !== undefined && owner !== identity.key)
          return { returnCode: NOT_AUTHORIZED, message: 'client id in use by another identity', notAGuess: true };
        return { identity, authority };
      }
    }
    return { returnCode: NOT_AUTHORIZED, message: 'unknown client' };
  }

  /**
   * Whether a live session may publish or subscribe to `topic` (reserved topics never; a failing authority: no). A
   * session's will is asked about after its connection ended (`will`): its rights are those of its identity still.
   */
  allowed(
    session: (Grant & { gone: boolean }) | undefined,
    topic: string,
    kind: 'publish' | 'subscribe',
    will = false,
  ): boolean {
    if (!session || (session.gone && !will) || reserved(topic)) return false;
    try {
      return kind === 'publish'
        ? session.authority.authorizePublish(session.identity, topic) === true
        : session.authority.authorizeSubscribe(session.identity, topic) === true;
    } catch (err) {
      this.log.error(`MQTT authority failed authorising ${kind} on ${topic}`, err);
      return false;
    }
  }
}
