// The LoRa server calls of the LoRa screens (spec 03 section 2.11; add/edit are ours), as values or a DeviceCallError.
import { T, contracts, type InputOf, type LoraServer } from '@sentra/contracts';
import { callOrThrow } from '../../api/call.js';

export async function listLoraServers(
  input: InputOf<typeof contracts.lora.list>,
): Promise<{ servers: LoraServer[]; total: number }> {
  const { data, total } = await callOrThrow(contracts.lora.list, input, T.shell.loadFailed);
  return { servers: data, total };
}

export async function getLoraServer(id: number): Promise<LoraServer> {
  return (await callOrThrow(contracts.lora.get, { id }, T.shell.loadFailed)).data;
}

export async function saveLoraServer(input: {
  id?: number;
  mac: string;
  name: string;
  server: string;
  application_uuid?: string;
}): Promise<LoraServer> {
  const def = input.id ? contracts.lora.edit : contracts.lora.add;
  // a taken MAC shows under its field (the contract's errorFields)
  const fallback = input.id ? T.lora.editFailed : T.lora.addFailed;
  return (await callOrThrow(def, input as InputOf<typeof contracts.lora.edit>, fallback)).data;
}
