// Picks the adapter for a message: the device's family decides the wire protocol, the topic must belong to it.
import { adaptGateway } from './gateway.js';
import { adaptGeneric } from './generic.js';
import { adaptLora } from './lora.js';
import { adaptTasmota } from './tasmota.js';
import { reject, WIRE_OF_CATEGORY, type AdapterResult, type DeviceContext, type WireProtocol } from './types.js';

export * from './types.js';
export { decodeLora, loraDecoderSchema, type LoraDecoder, type LoraField } from './lora.decoder.js';

const ADAPTERS: Record<WireProtocol, (ctx: DeviceContext, topic: string, payload: Buffer) => AdapterResult> = {
  generic: adaptGeneric,
  tasmota: adaptTasmota,
  lora: adaptLora,
  gateway: adaptGateway,
};

/** Default payload limit: far above any real device message, far below what could hurt the gateway. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

/** Never throws: every failure is a typed rejection the pipeline counts. */
export function adaptMessage(ctx: DeviceContext, topic: string, payload: Buffer, maxPayloadBytes = MAX_PAYLOAD_BYTES): AdapterResult {
  if (payload.length > maxPayloadBytes) return reject('too_large', `${payload.length} bytes`);
  const wire = WIRE_OF_CATEGORY[ctx.category];
  if (!wire) return reject('unknown_topic', `category ${ctx.category} has no MQTT telemetry`);
  try {
    return ADAPTERS[wire](ctx, topic, payload);
  } catch (err) {
    // a bug in an adapter must cost one message, never the broker
    return reject('bad_shape', err instanceof Error ? err.message : String(err));
  }
}
