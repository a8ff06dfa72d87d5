// MQTT and Sentra end devices (by broker credentials or by their token) keep to d/<id>/...; a token device not yet
// added has no topics.
import { nothing, own, type BrokerRules } from '../topics.js';

export const genericBroker: BrokerRules = {
  roles: ['device', 'token'],
  rules: (identity) => (identity.deviceId === undefined ? nothing : own('d', String(identity.deviceId))),
};
