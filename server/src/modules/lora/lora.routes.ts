// LoRa network server calls, each answered inside the caller's application only.
import { loraContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { LoraService } from './lora.service.js';

export const loraRoutes = (lora: LoraService) =>
  implement(loraContract, {
    list: ({ caller, input }) => lora.list(caller.app!.id, input),
    get: async ({ caller, input }) => ({ data: await lora.get(caller.app!.id, input.id) }),
    add: async ({ caller, input }) => ({ data: await lora.add(caller.app!.id, input) }),
    edit: async ({ caller, input }) => ({ data: await lora.edit(caller.app!.id, input) }),
    remove: ({ caller, input }) => lora.remove(caller.app!.id, input.id),
  });
