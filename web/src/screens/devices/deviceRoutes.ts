// The device screens' route keys (spec 03 section 2.1 "Destinations"; `{id}` glued to a name becomes its own segment,
// docs/architecture.md) and the address segment of a family's activation and info screens.
import { familyByCategory, type DeviceFamily } from '@sentra/contracts';
import { activationOf } from './activationKinds.js';

export const DeviceRoute = {
  list: '_device_list_',
  add: '_device_add_',
  addInfo: '_device_add_/info',
  addTagCategories: '_device_add_/tag_cat',
  addTags: '_device_add_/tag',
  addSensors: '_device_add_/sensors',
  /** the generic activation screen: the token screen of the raspberry-pi type (Sentra end device) */
  addActivation: '_device_add_/activation',
  /** lora, zlan, usr-iot, bivocom, friendcom, sentra, emma, imou_camera */
  addActivationOf: '_device_add_/activation/{family}',
  /** general info (2.4) of the families without an info screen of their own (Dummy, Sentra end device) */
  info: '_device_info_/{id}',
  /** `_device_edit_info_{category}_{id}`: the family's info screen (Info MQTT, Info ZLAN, ...) */
  familyInfo: '_device_edit_info_/{category}/{id}',
  editInfo: '_device_edit_info_/{id}',
  editSensors: '_device_edit_sensors_/{id}',
  /** tag category selection, then tag values */
  editTags: '_device_edit_tag_/{id}',
  editTagValues: '_device_edit_tag_value_/{id}',
  // the telemetry issue's screens
  dataAll: '_device_data_all_/{id}',
  dataDetail: '_device_data_detail_/{id}',
  state: '_device_state_/{id}',
} as const;

/**
 * Whether the principal may change devices (the calls a role with only "device list" is refused: edits, Konfigurasi,
 * Policy, Penanda, Hapus): a route only device manage grants stands for them, as for every screen's links.
 */
export const canManageDevices = (canReach: (routeKey: string) => boolean) => canReach(DeviceRoute.editInfo);

/**
 * A family's own address segment (`lora`, `zlan`, `usr-iot`, `bivocom`, `friendcom`, `sentra`, `emma`, `imou_camera`,
 * `mqtt`, `tasmota`): its connection category, LoRaWAN shortened to `lora` as the spec's activation route names it.
 * Families activated without a screen of their own (none, token) have none: they use the generic screens.
 */
export function familySegment(f: DeviceFamily): string | undefined {
  if (!activationOf(f).ownScreens) return undefined;
  return f.connection === 'lorawan' ? 'lora' : f.connection;
}

/** The row menu's category entry of a device: the family info screen, or the general info screen. */
export function infoRouteOf(category: number, id: number): { key: string; params: Record<string, string | number> } {
  const f = familyByCategory(category);
  const segment = f && familySegment(f);
  return segment
    ? { key: DeviceRoute.familyInfo, params: { category: segment, id } }
    : { key: DeviceRoute.info, params: { id } };
}
