// A refusal that belongs to a field (a taken serial number, a taken Tasmota topic) is declared with its call; the form
// shows it under that field. Every such declaration names a real input field and a catalogue text.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { T } from '../text/id.js';
import { allCalls, deviceFamilyCalls } from '../index.js';
import type { CallDef } from './define.js';

const familyAdds = Object.values(deviceFamilyCalls).flatMap((f) => Object.values(f.adds));
const declaring = [...allCalls(), ...familyAdds].filter((d): d is CallDef & { errorFields: Record<string, string> } =>
  Boolean(d.errorFields),
);

describe('errorFields of the calls', () => {
  it('every device add says a taken serial number belongs to serial_number; the Tasmota add, a taken topic to topic', () => {
    expect(familyAdds.length).toBeGreaterThan(0);
    for (const add of familyAdds) expect(add.errorFields?.[T.devices.serverSerialTaken]).toBe('serial_number');
    const tasmota = Object.values(deviceFamilyCalls.tasmota.adds);
    expect(tasmota.map((d) => d.errorFields?.[T.devices.serverTopicTaken])).toEqual(['topic']);
    const others = familyAdds.filter((d) => !tasmota.includes(d));
    expect(others.filter((d) => d.errorFields?.[T.devices.serverTopicTaken])).toEqual([]);
  });

  it.each(declaring.map((d) => [d.path, d] as const))('%s names fields of its own input', (_path, def) => {
    const shape = (def.input as z.ZodObject<z.ZodRawShape>).shape;
    for (const [message, field] of Object.entries(def.errorFields)) {
      expect(message.length).toBeGreaterThan(0);
      expect(Object.keys(shape)).toContain(field);
    }
  });
});
