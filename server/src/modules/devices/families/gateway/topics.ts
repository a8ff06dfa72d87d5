// Serial gateways keep to gw/<uid>/...; one nobody has added yet may only publish gw/<uid>/up, which is the evidence
// the activation's UID check looks for.
import { own, type BrokerRules } from '../topics.js';

export const gatewayBroker: BrokerRules = {
  roles: ['gateway', 'unclaimedGateway'],
  rules: (identity) =>
    identity.role === 'unclaimedGateway'
      ? { publish: (topic) => topic === `gw/${identity.uid}/up`, subscribe: () => false }
      : own('gw', identity.uid!),
  heard(identity, topic, _payload, ts, env) {
    // only a gateway not registered yet needs to be heard (the UID check of its activation)
    if (identity.role === 'unclaimedGateway' && topic === `gw/${identity.uid}/up`)
      void env.activation.heard(identity.uid!, ts).catch((err) => env.log.error('gateway sighting not written', err));
    return false;
  },
};
