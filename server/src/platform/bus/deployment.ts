// Gateways on one NATS bus prove that they share one database before they take each other's messages. Each gateway's
// subjects live under its deployment's id (`dep.<id>.<subject>`), so gateways of another deployment never see them: a
// telemetry message is stored by a gateway of its own deployment or by none, never into a database that does not have
// its device. And at start a gateway asks every gateway on the bus for its deployment: one that answers with another
// is a misconfiguration (a separate DATA_DIR, another database), and the start fails with an error saying so, while
// the gateways already running log it.
import { createInbox, type NatsConnection } from 'nats';
import { ConfigError } from '../config.js';
import type { Logger } from '../log.js';

/** the subject gateways greet each other on (outside every deployment's subjects) */
export const HELLO_SUBJECT = 'sentra.deployment.hello';
/** how long a starting gateway gathers the answers of the gateways on the bus */
export const HELLO_GATHER_MS = 600;

export interface GatewayHello {
  deployment: string;
  /** where it runs, for the error a mismatch gives: host name and process id */
  gateway: string;
}

/** A gateway with another database on the same bus: the start stops with this message. */
export class DeploymentMismatchError extends ConfigError {}

/** a deployment's subjects: `dep.<id>.` before each of the bus's own */
export const deploymentPrefix = (deployment: string) => `dep.${deployment}.`;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const parse = (bytes: Uint8Array): Partial<GatewayHello> => {
  try {
    return JSON.parse(decoder.decode(bytes)) as Partial<GatewayHello>;
  } catch {
    return {};
  }
};

/**
 * Answers other gateways' greetings with this one's deployment (logging, at most once a minute per deployment, any
 * that differs), then greets them and gathers their answers for `gatherMs`: a gateway of another deployment fails this
 * start. Resolves once no mismatch was found; answering goes on until the connection closes.
 */
export async function proveDeployment(
  nc: NatsConnection,
  me: GatewayHello,
  log: Logger,
  opts: { natsUrl: string; gatherMs?: number; what?: string } = { natsUrl: '' },
): Promise<void> {
  const logged = new Map<string, number>();
  nc.subscribe(HELLO_SUBJECT, {
    callback: (err, m) => {
      if (err || !m.reply) return;
      const other = parse(m.data);
      if (other.deployment && other.deployment !== me.deployment) {
        const last = logged.get(other.deployment) ?? 0;
        if (Date.now() - last > 60_000) {
          logged.set(other.deployment, Date.now());
          log.error(
            `a gateway with another database (deployment ${other.deployment}, ${other.gateway ?? 'unknown'}) tried to join this bus; this gateway's deployment is ${me.deployment}: it was refused`,
          );
        }
      }
      m.respond(encoder.encode(JSON.stringify(me)));
    },
  });
  const inbox = createInbox();
  const answers: GatewayHello[] = [];
  const sub = nc.subscribe(inbox, {
    callback: (err, m) => {
      if (err) return;
      const a = parse(m.data);
      if (a.deployment) answers.push({ deployment: a.deployment, gateway: a.gateway ?? 'unknown' });
    },
  });
  nc.publish(HELLO_SUBJECT, encoder.encode(JSON.stringify(me)), { reply: inbox });
  await nc.flush();
  await new Promise((r) => setTimeout(r, opts.gatherMs ?? HELLO_GATHER_MS));
  sub.unsubscribe();
  const other = answers.find((a) => a.deployment !== me.deployment);
  if (other)
    throw new DeploymentMismatchError(
      `BUS=nats: another gateway on this NATS server (NATS_URL=${opts.natsUrl}; ${other.gateway}) uses another database (deployment ${other.deployment}; this gateway's ${opts.what ?? 'database'} is deployment ${me.deployment}). Gateways of one deployment must share one database; give this gateway the deployment's database, or its own NATS server`,
    );
}
