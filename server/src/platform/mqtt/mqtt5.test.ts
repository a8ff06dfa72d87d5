import { describe, expect, it } from 'vitest';
import {
  asAedesConnect,
  connectRefusal,
  expiresAt,
  MAX_SESSION_EXPIRY_S,
  messageProperties,
  newV5Session,
  reasonAck,
  resolveTopicAlias,
  secondsLeft,
  TOPIC_ALIAS_MAXIMUM,
  toV5,
} from './mqtt5.js';

const limits = { receiveMaximum: 100, maximumPacketSize: 1024 };

describe('MQTT 5 on the broker threads', () => {
  it('maps Session Expiry to aedes clean session, capped at 7 days; "never" is the cap', () => {
    expect(newV5Session({}).sessionExpiry).toBe(0);
    expect(newV5Session({ properties: { sessionExpiryInterval: 300 } }).sessionExpiry).toBe(300);
    expect(newV5Session({ properties: { sessionExpiryInterval: 0xffffffff } }).sessionExpiry).toBe(
      MAX_SESSION_EXPIRY_S,
    );
    const kept = asAedesConnect(
      { protocolVersion: 5, clean: true },
      newV5Session({ properties: { sessionExpiryInterval: 60 } }),
    );
    expect(kept).toMatchObject({ protocolVersion: 4, clean: false, cleanStart: true });
    expect(asAedesConnect({ protocolVersion: 5, clean: false }, newV5Session({})).clean).toBe(true);
  });

  it('refuses enhanced authentication with reason 140', () => {
    expect(connectRefusal({ properties: { authenticationMethod: 'SCRAM' } })).toBe(0x8c);
    expect(connectRefusal({})).toBeUndefined();
  });

  it('writes CONNACK with reason codes and, on success, what the broker takes', () => {
    const s = newV5Session({ properties: { sessionExpiryInterval: 0xffffffff } });
    expect(toV5({ cmd: 'connack', returnCode: 5, sessionPresent: false }, s, limits, 0)).toEqual({
      cmd: 'connack',
      sessionPresent: false,
      reasonCode: 0x87,
    });
    expect(toV5({ cmd: 'connack', returnCode: 4, sessionPresent: false }, s, limits, 0)).toMatchObject({
      reasonCode: 0x86,
    });
    const ok = toV5(
      { cmd: 'connack', returnCode: 0, sessionPresent: true },
      s,
      { ...limits, askedExpiry: 0xffffffff },
      0,
    )!;
    expect(ok).toMatchObject({
      reasonCode: 0,
      sessionPresent: true,
      properties: {
        topicAliasMaximum: TOPIC_ALIAS_MAXIMUM,
        receiveMaximum: 100,
        sessionExpiryInterval: MAX_SESSION_EXPIRY_S,
      },
    });
  });

  it('says Not authorized (135) in SUBACK and PUBACK refusals, and one reason per filter in UNSUBACK', () => {
    const s = newV5Session({});
    expect(toV5({ cmd: 'suback', messageId: 1, granted: [1, 128, 0] }, s, limits, 0)).toMatchObject({
      granted: [1, 0x87, 0],
    });
    s.unsubscribing.set(7, 3);
    expect(toV5({ cmd: 'unsuback', messageId: 7 }, s, limits, 0)).toMatchObject({ granted: [0, 0, 0] });
    expect(s.unsubscribing.size).toBe(0);
    expect([...reasonAck(0x1234, 0x87)]).toEqual([0x40, 3, 0x12, 0x34, 0x87]);
    expect([...reasonAck(1, 0x87, true)]).toEqual([0x50, 3, 0, 1, 0x87]);
  });

  it('resolves topic aliases: set with a topic, used with an empty one; unknown or out of range is an error', () => {
    const s = newV5Session({});
    expect(resolveTopicAlias(s, 'a/b', 2)).toEqual({ topic: 'a/b' });
    expect(resolveTopicAlias(s, '', 2)).toEqual({ topic: 'a/b' });
    expect(resolveTopicAlias(s, 'c', undefined)).toEqual({ topic: 'c' });
    expect(resolveTopicAlias(s, '', 3)).toMatchObject({ reason: 0x82 });
    expect(resolveTopicAlias(s, 'x', 0)).toMatchObject({ reason: 0x94 });
    expect(resolveTopicAlias(s, 'x', TOPIC_ALIAS_MAXIMUM + 1)).toMatchObject({ reason: 0x94 });
  });

  it("passes the message's properties on without the sender's alias, with the expiry that remains; drops an expired one", () => {
    expect(messageProperties({ topicAlias: 3, userProperties: { a: '1' } })).toEqual({ userProperties: { a: '1' } });
    expect(messageProperties({ topicAlias: 3 })).toBeUndefined();
    expect(expiresAt({ messageExpiryInterval: 10 }, 1000)).toBe(11_000);
    expect(secondsLeft(11_000, 2_500)).toBe(9);
    const s = newV5Session({});
    const p = {
      cmd: 'publish',
      topic: 't',
      payload: Buffer.from('x'),
      qos: 1,
      properties: { contentType: 'text/plain' },
      expiresAt: 11_000,
    };
    expect(toV5(p, s, limits, 2_500)).toMatchObject({
      properties: { contentType: 'text/plain', messageExpiryInterval: 9 },
    });
    expect(toV5(p, s, limits, 11_000)).toBeNull();
  });
});
