import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { T, type Device, type DeviceFamilyKey, type TagCategory } from '@sentra/contracts';
import {
  deviceWizardMachine,
  emptyDraft,
  reachableStep,
  stepOfSnapshot,
  stepsOf,
  type DeviceDraft,
  type DeviceWizardContext,
  type DeviceWizardInput,
} from './deviceWizard.machine.js';
import { DeviceCallError, type AddRequest } from './deviceCalls.js';
import { notices } from '../../ui/snackbar/notices.js';

const CATEGORIES: TagCategory[] = [
  {
    id: 1,
    name: 'Lokasi',
    prefix: 'lokasi',
    category: 1,
    category_text: 'Single Selection',
    definitions: [{ name: 'Gedung A', name_lc: 'gedung_a', prefix: 'lokasi' }],
  },
  { id: 2, name: 'Label Bebas', prefix: 'bebas', category: 4, category_text: 'Multi', definitions: [] },
];

interface Options {
  categories?: TagCategory[];
  add?: (req: AddRequest) => Device;
  tokenChecks?: boolean[];
  uidCheck?: (uid: string) => string;
}

function start(input: DeviceWizardInput = {}, opts: Options = {}) {
  const calls = { add: [] as AddRequest[], tokens: 0, tokenChecks: 0, uidChecks: [] as string[] };
  const checks = [...(opts.tokenChecks ?? [true])];
  const machine = deviceWizardMachine.provide({
    actors: {
      loadTagCategories: fromPromise(async () => opts.categories ?? CATEGORIES),
      generateToken: fromPromise(async () => `token-${++calls.tokens}`),
      checkToken: fromPromise(async () => {
        calls.tokenChecks++;
        if (!(checks.shift() ?? true)) throw new DeviceCallError(T.devices.serverNotConnected);
        return 1;
      }),
      checkUid: fromPromise(async ({ input }: { input: { family: string; uid: string } }) => {
        calls.uidChecks.push(input.uid);
        return (opts.uidCheck ?? ((u: string) => u))(input.uid);
      }),
      loadLoraServers: fromPromise(async () => [
        {
          id: 5,
          mac: 'AA:BB:CC:DD:EE:FF',
          name: 'Gerbang',
          server: 'x',
          application_uuid: null as string | null,
          created_at: 0,
        },
      ]),
      loadEmmaPlugins: fromPromise(async () => [
        { emma_plugin_key: 'emma.meter', emma_application_plugin_id: 'app-1', emma_plugin_name: 'Meter' },
      ]),
      addDevice: fromPromise(async ({ input }: { input: AddRequest }) => {
        calls.add.push(input);
        return (opts.add ?? (() => ({ id: 9 }) as Device))(input);
      }),
    },
    delays: { tokenCheckInterval: 5 },
  });
  const actor = createActor(machine, { input }).start();
  return { actor, calls };
}
type Actor = ReturnType<typeof start>['actor'];

const step = (a: Actor) => stepOfSnapshot(a.getSnapshot().value, a.getSnapshot().context);
const ready = (a: Actor) => waitFor(a, (s) => !s.matches('loading'));
const fillInfo = (a: Actor, serial = 'AAAA-BBBB-1111-2222', name = 'Pompa Air') => {
  a.send({ type: 'EDIT_INFO', field: 'serial_number', value: serial });
  a.send({ type: 'EDIT_INFO', field: 'name', value: name });
};
/** Loaded, the family's type chosen and the info filled in (`submit`: and submitted). */
async function filled(a: Actor, family: DeviceFamilyKey, variant: string, submit = false) {
  await ready(a);
  a.send({ type: 'CHOOSE', family, variant });
  fillInfo(a);
  if (submit) a.send({ type: 'SUBMIT_INFO' });
}
const noticeTexts = () => notices.snapshot().map((n) => n.message);
afterEach(() => {
  for (const n of notices.snapshot()) notices.dismiss(n.id);
});

describe('device wizard: Kategori and Informasi', () => {
  it('adds a DUMMY straight after Informasi ("Simpan") and notifies "Sukses"', async () => {
    const { actor, calls } = start();
    await ready(actor);
    expect(step(actor)).toBe('category');
    actor.send({ type: 'CHOOSE', family: 'dummy', variant: 'dummy' });
    expect(step(actor)).toBe('info');
    fillInfo(actor);
    actor.send({ type: 'SUBMIT_INFO' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add).toEqual([
      { family: 'dummy', variant: 'dummy', body: { serial_number: 'AAAA-BBBB-1111-2222', name: 'Pompa Air' } },
    ]);
    expect(noticeTexts()).toContain(T.devices.addSuccess);
  });
  it('refuses empty info with "Nomor serial tidak boleh kosong" and "Nama tidak boleh kosong", also on Penanda', () => {
    const { actor } = start({ draft: { ...emptyDraft(), family: 'dummy', variant: 'dummy' }, start: 'info' });
    return ready(actor).then(() => {
      actor.send({ type: 'OPEN_TAGS' });
      expect(step(actor)).toBe('info');
      expect(actor.getSnapshot().context.infoErrors).toEqual({
        serial_number: T.devices.serialRequired,
        name: T.devices.nameRequired,
      });
      actor.send({ type: 'EDIT_INFO', field: 'name', value: 'n'.repeat(33) });
      actor.send({ type: 'SUBMIT_INFO' });
      expect(actor.getSnapshot().context.infoErrors.name).toBe(T.common.max(32));
    });
  });
  it('returns to Informasi with the field message when the serial number is taken', async () => {
    const { actor } = start(
      {},
      {
        add: () => {
          throw new DeviceCallError(
            T.devices.serverSerialTaken,
            { serial_number: T.devices.serverSerialTaken },
            400,
            -12,
          );
        },
      },
    );
    await filled(actor, 'mqtt', 'mqtt', true);
    await waitFor(actor, (s) => s.matches('info') && Object.keys(s.context.infoErrors).length > 0);
    expect(actor.getSnapshot().context.infoErrors.serial_number).toBe(T.devices.serverSerialTaken);
    expect(noticeTexts()).toContain(T.devices.serverSerialTaken);
  });
});

describe("device wizard: a Tasmota's existing Topic (issue 27)", () => {
  it('registers a Tasmota with the Topic it already has, and without one when the field is left empty', async () => {
    const { actor, calls } = start();
    await ready(actor);
    actor.send({ type: 'CHOOSE', family: 'tasmota', variant: 'tasmota' });
    fillInfo(actor, 'TAS-1', 'Lampu Teras');
    actor.send({ type: 'EDIT_INFO', field: 'topic', value: ' tasmota_5C1A2B ' });
    actor.send({ type: 'SUBMIT_INFO' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add[0]).toEqual({
      family: 'tasmota',
      variant: 'tasmota',
      body: { serial_number: 'TAS-1', name: 'Lampu Teras', topic: 'tasmota_5C1A2B' },
    });

    const second = start();
    await ready(second.actor);
    second.actor.send({ type: 'CHOOSE', family: 'tasmota', variant: 'tasmota' });
    fillInfo(second.actor, 'TAS-2', 'Lampu Dapur');
    second.actor.send({ type: 'SUBMIT_INFO' });
    await waitFor(second.actor, (s) => s.status === 'done');
    expect(second.calls.add[0]!.body).toEqual({ serial_number: 'TAS-2', name: 'Lampu Dapur' });
  });
  it("refuses a Topic Tasmota would not take (a '/', its group topic) with the Indonesian message, before any call", async () => {
    const { actor, calls } = start();
    await filled(actor, 'tasmota', 'tasmota');
    for (const topic of ['lampu/teras', 'tasmotas', 'x'.repeat(33)]) {
      actor.send({ type: 'EDIT_INFO', field: 'topic', value: topic });
      actor.send({ type: 'SUBMIT_INFO' });
      expect(step(actor)).toBe('info');
      expect(actor.getSnapshot().context.infoErrors.topic).toBe(T.devices.tasmotaTopicInvalid);
    }
    expect(calls.add).toEqual([]);
  });
  it('returns to Informasi with the message on the Topic field when another device has that Topic', async () => {
    const { actor } = start(
      {},
      {
        add: () => {
          throw new DeviceCallError(T.devices.serverTopicTaken, { topic: T.devices.serverTopicTaken }, 400, -12);
        },
      },
    );
    await filled(actor, 'tasmota', 'tasmota');
    actor.send({ type: 'EDIT_INFO', field: 'topic', value: 'dipakai' });
    actor.send({ type: 'SUBMIT_INFO' });
    await waitFor(actor, (s) => s.matches('info') && Object.keys(s.context.infoErrors).length > 0);
    expect(actor.getSnapshot().context.infoErrors.topic).toBe(T.devices.serverTopicTaken);
  });
});

describe('device wizard: tags', () => {
  it('goes Penanda → categories → values and sends the chosen tags only', async () => {
    const { actor, calls } = start();
    await filled(actor, 'tasmota', 'tasmota');
    actor.send({ type: 'OPEN_TAGS' });
    expect(step(actor)).toBe('tagCategories');
    actor.send({ type: 'TOGGLE_TAG_CATEGORY', prefix: 'lokasi' });
    actor.send({ type: 'TOGGLE_TAG_CATEGORY', prefix: 'bebas' });
    actor.send({ type: 'SUBMIT_TAG_CATEGORIES' });
    expect(step(actor)).toBe('tags');
    actor.send({ type: 'SUBMIT_TAGS' });
    expect(actor.getSnapshot().context.tagErrors).toEqual({
      lokasi: T.devices.tagValueRequired,
      bebas: T.devices.tagValueRequired,
    });
    actor.send({ type: 'SET_TAG_VALUES', prefix: 'lokasi', values: ['gedung_a'] });
    actor.send({ type: 'SET_TAG_VALUES', prefix: 'bebas', values: ['Pompa'] });
    actor.send({ type: 'SUBMIT_TAGS' });
    expect(actor.getSnapshot().context.tagErrors).toEqual({ bebas: T.tags.noCapitals });
    actor.send({ type: 'SET_TAG_VALUES', prefix: 'bebas', values: ['pompa', 'lantai_2'] });
    actor.send({ type: 'SUBMIT_TAGS' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add[0]!.body.tags).toEqual({ lokasi: ['gedung_a'], bebas: ['pompa', 'lantai_2'] });
  });
  it('with no category chosen proceeds past the tag values (to Konfigurasi for the raspberry-pi type)', async () => {
    const { actor } = start();
    await filled(actor, 'sentraEnd', 'sentraEnd');
    actor.send({ type: 'OPEN_TAGS' });
    actor.send({ type: 'SUBMIT_TAG_CATEGORIES' });
    expect(step(actor)).toBe('sensors');
  });
  it('offers no Penanda step when the application has no tag categories', async () => {
    const { actor } = start({}, { categories: [] });
    await filled(actor, 'dummy', 'dummy');
    actor.send({ type: 'OPEN_TAGS' });
    expect(step(actor)).toBe('info');
  });
});

describe('device wizard: the raspberry-pi type (token activation)', () => {
  it('checks the sensors JSON, pretty-formats it, generates a token, checks it in the background and adds with it', async () => {
    const { actor, calls } = start({}, { tokenChecks: [false, false, true] });
    await filled(actor, 'sentraEnd', 'sentraEnd', true);
    expect(step(actor)).toBe('sensors');
    actor.send({ type: 'EDIT_SENSORS', value: '{bukan json' });
    actor.send({ type: 'SUBMIT_SENSORS' });
    expect(actor.getSnapshot().context.sensorsError).toBe(T.devices.sensorsJson);
    expect(notices.snapshot().find((n) => n.message === T.devices.sensorsJson)?.level).toBe('warning');
    actor.send({ type: 'EDIT_SENSORS', value: '{"suhu":{"data":{"celsius":0}}}' });
    actor.send({ type: 'SUBMIT_SENSORS' });
    expect(actor.getSnapshot().context.draft.sensors).toBe(JSON.stringify({ suhu: { data: { celsius: 0 } } }, null, 2));
    expect(step(actor)).toBe('activation');
    // Simpan does nothing before the check succeeded
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    expect(calls.add).toHaveLength(0);
    await waitFor(actor, (s) => s.context.tokenConnected);
    expect(calls.tokenChecks).toBe(3);
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add[0]).toMatchObject({
      family: 'sentraEnd',
      body: { credentials_token: 'token-1', sensors: JSON.stringify({ suhu: { data: { celsius: 0 } } }, null, 2) },
    });
  });
  it('"Refresh token" issues a new token and checks again', async () => {
    const { actor, calls } = start({}, { tokenChecks: [false, false, false, false, false, false] });
    await filled(actor, 'sentraEnd', 'sentraEnd', true);
    actor.send({ type: 'SUBMIT_SENSORS' });
    await waitFor(actor, (s) => s.context.token === 'token-1');
    actor.send({ type: 'REFRESH_TOKEN' });
    await waitFor(actor, (s) => s.context.token === 'token-2');
    expect(calls.tokens).toBe(2);
    expect(actor.getSnapshot().context.tokenConnected).toBe(false);
  });
});

describe('device wizard: UID activation (ZLAN, USR IOT, Bivocom, Friendcom, Sentra gateways)', () => {
  it('needs a UID, checks it first ("Aktivasi"), then adds on the next submit ("Simpan")', async () => {
    const { actor, calls } = start();
    await filled(actor, 'zlan', 'zlan', true);
    expect(step(actor)).toBe('activation');
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    expect(actor.getSnapshot().context.activationErrors.dev_uid).toBe(T.devices.uidRequired);
    actor.send({ type: 'EDIT_ACTIVATION', field: 'dev_uid', value: 'ZL-0001' });
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    await waitFor(actor, (s) => s.context.uidChecked === 'ZL-0001');
    expect(calls.add).toHaveLength(0);
    // a changed UID must be checked again
    actor.send({ type: 'EDIT_ACTIVATION', field: 'dev_uid', value: 'ZL-0002' });
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    await waitFor(actor, (s) => s.context.uidChecked === 'ZL-0002');
    expect(calls.uidChecks).toEqual(['ZL-0001', 'ZL-0002']);
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add[0]).toEqual({
      family: 'zlan',
      variant: 'zlan',
      body: { serial_number: 'AAAA-BBBB-1111-2222', name: 'Pompa Air', dev_uid: 'ZL-0002' },
    });
  });
  it('shows the check failure and stays on "Aktivasi"', async () => {
    const { actor, calls } = start(
      {},
      {
        uidCheck: () => {
          throw new DeviceCallError(T.devices.serverUidNotHeard);
        },
      },
    );
    await filled(actor, 'sentraGateway', 'sentraMini', true);
    actor.send({ type: 'EDIT_ACTIVATION', field: 'dev_uid', value: 'SG-1' });
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    await waitFor(actor, (s) => s.matches({ activation: { uid: 'idle' } }) && calls.uidChecks.length === 1);
    expect(actor.getSnapshot().context.uidChecked).toBeUndefined();
    expect(noticeTexts()).toContain(T.devices.serverUidNotHeard);
  });
});

describe('device wizard: LoRa, Emma and Imou', () => {
  it('adds a LoRa device with Dev EUI, OTAA key and one of the LoRa servers', async () => {
    const { actor, calls } = start();
    await filled(actor, 'lora', 'lora', true);
    await waitFor(actor, (s) => s.matches({ activation: { lora: 'form' } }));
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    expect(Object.keys(actor.getSnapshot().context.activationErrors).sort()).toEqual([
      'dev_eui',
      'network_server_id',
      'otaa_key',
    ]);
    actor.send({ type: 'EDIT_ACTIVATION', field: 'dev_eui', value: '70b3d57ed0000001' });
    actor.send({ type: 'EDIT_ACTIVATION', field: 'otaa_key', value: '0'.repeat(32) });
    actor.send({ type: 'EDIT_ACTIVATION', field: 'network_server_id', value: '5' });
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add[0]!.body).toMatchObject({
      dev_eui: '70b3d57ed0000001',
      otaa_key: '0'.repeat(32),
      network_server_id: 5,
    });
  });
  it('adds an Emma device with the chosen plugin and its details (default "{}")', async () => {
    const { actor, calls } = start();
    await filled(actor, 'emma', 'emma', true);
    await waitFor(actor, (s) => s.matches({ activation: { plugin: 'form' } }));
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    expect(actor.getSnapshot().context.activationErrors.emma_plugin).toBe(T.common.required);
    actor.send({ type: 'SELECT_PLUGIN', applicationId: 'app-1' });
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add[0]!.body).toMatchObject({
      emma_plugin_key: 'emma.meter',
      emma_application_plugin_id: 'app-1',
      emma_device_plugin_details: '{}',
    });
  });
  it('needs both Imou ids', async () => {
    const { actor, calls } = start();
    await filled(actor, 'imou', 'imou', true);
    actor.send({ type: 'EDIT_ACTIVATION', field: 'imou_device_id', value: 'CAM1' });
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    expect(actor.getSnapshot().context.activationErrors).toEqual({ imou_application_id: T.common.required });
    actor.send({ type: 'EDIT_ACTIVATION', field: 'imou_application_id', value: 'lc01' });
    actor.send({ type: 'SUBMIT_ACTIVATION' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add[0]!.body).toMatchObject({ imou_device_id: 'CAM1', imou_application_id: 'lc01' });
  });
});

describe('device wizard: the activation kinds (activationKinds.ts)', () => {
  // each activation screen: how to fill it, and the state a failed add returns to
  const screens = [
    {
      family: 'zlan',
      variant: 'zlan',
      fill: { dev_uid: '  ZL-9  ' },
      body: { dev_uid: 'ZL-9' },
      back: { uid: 'idle' },
    },
    {
      family: 'lora',
      variant: 'lora',
      fill: { dev_eui: ' 70b3d57ed0000001 ', otaa_key: '0'.repeat(32), network_server_id: '5' },
      body: { dev_eui: '70b3d57ed0000001', network_server_id: 5 },
      back: { lora: 'form' },
    },
    {
      family: 'imou',
      variant: 'imou',
      fill: { imou_device_id: ' CAM1 ', imou_application_id: 'lc01' },
      body: { imou_device_id: 'CAM1', imou_application_id: 'lc01' },
      back: 'cloud',
    },
  ] as const;
  it.each(screens)(
    '$family: sends its own fields trimmed, and a refused add returns to its form',
    async ({ family, variant, fill, body, back }) => {
      const { actor, calls } = start(
        {},
        {
          add: () => {
            throw new DeviceCallError('ditolak');
          },
        },
      );
      await ready(actor);
      actor.send({ type: 'CHOOSE', family, variant });
      fillInfo(actor);
      actor.send({ type: 'SUBMIT_INFO' });
      await waitFor(actor, (s) => s.matches({ activation: back }));
      for (const [field, value] of Object.entries(fill))
        actor.send({ type: 'EDIT_ACTIVATION', field: field as keyof typeof fill, value });
      actor.send({ type: 'SUBMIT_ACTIVATION' });
      if (family === 'zlan') {
        await waitFor(actor, (s) => s.context.uidChecked === 'ZL-9');
        actor.send({ type: 'SUBMIT_ACTIVATION' });
      }
      await waitFor(actor, () => calls.add.length === 1);
      await waitFor(actor, (s) => !s.matches('saving'));
      expect(calls.add[0]!.body).toMatchObject(body);
      expect(actor.getSnapshot().matches({ activation: back })).toBe(true);
    },
  );
});

describe('device wizard: drafts, redirects and reset', () => {
  const drafted = (over: Partial<DeviceDraft> = {}): DeviceDraft => ({
    ...emptyDraft(),
    family: 'zlan',
    variant: 'zlan',
    info: { serial_number: 'S-1', name: 'ZLAN' },
    ...over,
  });

  it('sends a step asked for without its draft back to the step before', async () => {
    const none = start({ start: 'activation' });
    await ready(none.actor);
    expect(step(none.actor)).toBe('category');
    const noInfo = start({ draft: { ...drafted(), info: { serial_number: '', name: '' } }, start: 'activation' });
    await ready(noInfo.actor);
    expect(step(noInfo.actor)).toBe('info');
    const full = start({ draft: drafted(), start: 'activation' });
    await ready(full.actor);
    expect(step(full.actor)).toBe('activation');
    // no category chosen yet: the tag values fall back to the category choice
    full.actor.send({ type: 'GOTO', step: 'tags' });
    expect(step(full.actor)).toBe('tagCategories');
    full.actor.send({ type: 'GOTO', step: 'sensors' });
    expect(step(full.actor)).toBe('info');
  });
  it('RESET empties the draft and starts at Kategori', async () => {
    const { actor } = start({ draft: drafted(), start: 'info' });
    await ready(actor);
    actor.send({ type: 'RESET' });
    expect(step(actor)).toBe('category');
    expect(actor.getSnapshot().context.draft).toEqual(emptyDraft());
  });
  it('shows the steps of the family: direct, raspberry-pi type, activation, with tags', () => {
    expect(stepsOf({ ...emptyDraft(), family: 'dummy' })).toEqual(['category', 'info']);
    expect(stepsOf({ ...emptyDraft(), family: 'sentraEnd', tagCat: ['lokasi'] })).toEqual([
      'category',
      'info',
      'tags',
      'sensors',
      'activation',
    ]);
    expect(stepsOf({ ...emptyDraft(), family: 'bivocom' })).toEqual(['category', 'info', 'activation']);
  });
  it('reaches the sensors step only for the raspberry-pi type', () => {
    const ctx = (draft: DeviceDraft): DeviceWizardContext => ({
      draft,
      tagCategories: CATEGORIES,
      start: 'category',
      infoErrors: {},
      tagErrors: {},
      activationErrors: {},
      tokenConnected: false,
      loraServers: [],
      emmaPlugins: [],
      returnTo: 'info',
    });
    expect(reachableStep({ ...ctx(drafted({ family: 'sentraEnd', variant: 'sentraEnd' })) }, 'sensors')).toBe(
      'sensors',
    );
    expect(reachableStep({ ...ctx(drafted()) }, 'sensors')).toBe('info');
  });
});
