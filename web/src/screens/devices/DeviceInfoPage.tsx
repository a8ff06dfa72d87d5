// The read-only device info screens (spec 03 section 2.4): the general info (`_device_info_/{id}`: id, serial, name,
// device type from the server, the rest fixed placeholders) and each family's own info (`_device_edit_info_/{category}/{id}`:
// Info MQTT, Info Tasmota, Info ZLAN, ..., Emma plugin, Imou ids), drawn from the family get's fields. "Kembali"
// returns to the device list. Devices signing in on the broker with a secret (MQTT, Tasmota, serial gateways) show only
// that it is kept as a hash, the gateway's connection settings, and "Buat Ulang Password", which shows a new one once.
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import {
  T,
  deviceFamilies,
  deviceTypes,
  type Device,
  type DeviceFamily,
  type DeviceFamilyKey,
  type GatewayConnection,
} from '@sentra/contracts';
import type { ScreenProps } from '../../shell/routeRegistry.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { canManageDevices, DeviceRoute, familySegment } from './deviceRoutes.js';
import { useCanReach } from '../../shell/grants.js';
import { getDevice, getFamilyDevice, regenerateBrokerSecret } from './deviceCalls.js';
import { BrokerSecretPanel, hasBrokerSecret, type ShownSecret } from './BrokerSecretPanel.js';
import { activationOf } from './activationKinds.js';
import { useConfirmedAction } from '../../api/confirmed.js';

/** What the general screen shows where the server has no value (the spec: "fixed placeholders"). */
const PLACEHOLDER = '-';

/** Labels of the family get's own fields; fields left out here are not shown on their own. */
const FIELD_LABEL: Record<string, string> = {
  store_mqtt_url: T.devices.infoBrokerUrl,
  store_mqtt_username: T.devices.infoUsername,
  store_mqtt_password: T.devices.infoPassword,
  store_mqtt_mode: T.devices.infoMode,
  store_mqtt_topic: T.devices.infoTopic,
  store_mqtt_details: T.devices.infoDetails,
  device_mqtt_url: T.devices.infoBrokerUrl,
  username: T.devices.infoUsername,
  password: T.devices.infoPassword,
  topic: T.devices.infoTopic,
  full_topic: T.devices.infoFullTopic,
  tasmota_discovery: T.devices.infoTasmotaDiscovery,
  dev_eui: T.devices.devEui,
  network_server_name: T.devices.infoNetworkServer,
  network_server_mac: T.lora.mac,
  sentra_device_uid: T.devices.infoDeviceUid,
  sentra_device_type: T.devices.infoProductDeviceType,
  emma_plugin_definition: T.devices.infoPluginName,
  emma_plugin_details: T.devices.emmaPluginDetails,
  imou_device_id: T.devices.imouDeviceId,
  imou_application_id: T.devices.imouApplicationId,
};
/** broker credentials and identifiers read better in a fixed-width font */
const MONO_FIELDS = new Set(['store_mqtt_username', 'store_mqtt_password', 'username', 'password', 'topic', 'dev_eui']);
const JSON_FIELDS = new Set(['store_mqtt_details', 'emma_plugin_details', 'tasmota_discovery']);
/** broker passwords: the server keeps only their hash and answers them empty */
const SECRET_FIELDS = new Set(['store_mqtt_password', 'password']);

export interface InfoRow {
  field: string;
  label: string;
  value: string;
}

/** The family's own fields of a family get answer, labelled, in the family table's order. */
export function familyInfoRows(f: DeviceFamily, d: Record<string, unknown>): InfoRow[] {
  const rows: InfoRow[] = [];
  for (const field of Object.keys(f.info)) {
    const label = field === f.uidField ? T.devices.infoDeviceUid : FIELD_LABEL[field];
    if (!label) continue;
    const v = d[field];
    let value: string;
    if (field === 'emma_plugin_definition')
      value = `${(v as { name?: string } | null)?.name ?? ''} (${String(d.emma_plugin_application_id ?? '')})`;
    else if (JSON_FIELDS.has(field)) value = v === null || v === undefined ? PLACEHOLDER : prettyJson(v);
    else if (SECRET_FIELDS.has(field) && !v) value = T.devices.secretHidden;
    else value = v === null || v === undefined ? PLACEHOLDER : String(v);
    rows.push({ field, label, value });
  }
  const c = d.gateway_connection as GatewayConnection | undefined;
  if (c) {
    rows.push(
      { field: 'mqtt_host', label: T.devices.brokerHost, value: c.mqtt_host },
      { field: 'mqtt_port', label: T.devices.brokerPort, value: String(c.mqtt_port) },
      { field: 'ws_url', label: T.devices.brokerWsUrl, value: c.ws_url },
      { field: 'client_id', label: T.devices.clientId, value: c.client_id },
      { field: 'gateway_username', label: T.devices.infoUsername, value: c.username },
      { field: 'gateway_secret', label: T.devices.gatewaySecret, value: T.devices.secretHidden },
      { field: 'up_topic', label: T.devices.upTopic, value: c.up_topic },
      { field: 'down_topic', label: T.devices.downTopic, value: c.down_topic },
    );
  }
  return rows;
}

function prettyJson(v: unknown): string {
  if (typeof v === 'string') {
    try {
      return JSON.stringify(JSON.parse(v), null, 2);
    } catch {
      return v;
    }
  }
  return JSON.stringify(v ?? {}, null, 2);
}

const familyBySegment = (segment: string) => deviceFamilies.find((f) => familySegment(f) === segment);

export function DeviceInfoPage({ routeKey }: ScreenProps) {
  const { id = '', category = '' } = useParams();
  const area = useAppArea();
  const navigate = useNavigate();
  const family = routeKey === DeviceRoute.familyInfo ? familyBySegment(category) : undefined;
  const [device, setDevice] = useState<(Device & Record<string, unknown>) | null>(null);
  const [loading, setLoading] = useState(true);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const { busy: acting, act: confirmed } = useConfirmedAction();
  // a role that only lists devices is refused the call: no button for it
  const canWrite = canManageDevices(useCanReach());

  useEffect(() => {
    const deviceId = Number(id);
    if (!Number.isInteger(deviceId) || deviceId <= 0 || (routeKey === DeviceRoute.familyInfo && !family)) {
      setLoading(false);
      return;
    }
    setLoading(true);
    (family ? getFamilyDevice(family.key as DeviceFamilyKey, deviceId) : getDevice(deviceId))
      .then(
        (d) => setDevice(d as Device & Record<string, unknown>),
        () => setDevice(null),
      )
      .finally(() => setLoading(false));
  }, [id, family, routeKey]);

  const title = family ? (T.devices.familyInfoTitle[family.key] ?? T.devices.infoTitle) : T.devices.infoTitle;
  const typeLabel = device
    ? (deviceTypes.find((t) => t.deviceType === device.deviceType)?.label ?? device.deviceType)
    : '';
  const general: InfoRow[] = device
    ? [
        { field: 'id', label: T.devices.infoId, value: String(device.id) },
        { field: 'serial_number', label: T.devices.infoSerial, value: device.serial_number },
        { field: 'name', label: T.devices.infoName, value: device.name },
        { field: 'deviceType', label: T.devices.infoDeviceType, value: typeLabel },
        ...(family
          ? []
          : [
              { field: 'category', label: T.devices.infoCategory, value: device.category_text },
              { field: 'firmware', label: T.devices.infoFirmware, value: device.firmware_version },
              ...(
                [
                  ['temperature', T.devices.infoTemperature],
                  ['hardware', T.devices.infoHardware],
                  ['storage', T.devices.infoStorage],
                  ['bandwidth', T.devices.infoBandwidth],
                  ['memory', T.devices.infoMemory],
                  ['cpu', T.devices.infoCpu],
                ] as const
              ).map(([field, label]) => ({ field, label, value: PLACEHOLDER })),
            ]),
      ]
    : [];
  const own = device && family ? familyInfoRows(family, device) : [];

  const regenerate = () => {
    if (!device) return;
    return confirmed({
      ask: { message: T.devices.regenerateConfirm },
      run: () => regenerateBrokerSecret(device.id),
      failed: T.devices.regenerateFailed,
      // no notice: the new secret is shown once, beside its copy button
      done: (r) => {
        const url = (device.store_mqtt_url ?? device.device_mqtt_url) as string | undefined;
        const connection = device.gateway_connection as GatewayConnection | undefined;
        setShown({
          secret: r.secret,
          username: r.username,
          brokerUrl: url,
          connection,
          // what the device is: its topics in the guide beside the new secret
          kind: connection ? 'gateway' : family && activationOf(family).secret?.kind === 'tasmota' ? 'tasmota' : 'mqtt',
          deviceId: device.id,
          topic: typeof device.topic === 'string' ? device.topic : undefined,
        });
      },
    });
  };

  return (
    <Box sx={{ maxWidth: 760 }}>
      <Typography variant="h4" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
        {title}
      </Typography>
      <Card variant="outlined" sx={{ position: 'relative', minHeight: 160 }}>
        <CardContent>
          <Stack spacing={2} data-testid="device-info">
            {[...general, ...own].map((r) => (
              <TextField
                key={r.field}
                label={r.label}
                value={r.value}
                fullWidth
                multiline={JSON_FIELDS.has(r.field)}
                slotProps={{
                  htmlInput: {
                    readOnly: true,
                    style: JSON_FIELDS.has(r.field)
                      ? { fontFamily: 'monospace', height: 200, overflow: 'auto' }
                      : MONO_FIELDS.has(r.field)
                        ? { fontFamily: 'monospace' }
                        : undefined,
                  },
                }}
              />
            ))}
            {!loading && !device && <Typography color="text.secondary">{T.common.notFound}</Typography>}
            {shown && <BrokerSecretPanel shown={shown} />}
          </Stack>
          <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
            <Button variant="contained" onClick={() => navigate(area.to(DeviceRoute.list))}>
              {T.common.back}
            </Button>
            {device && canWrite && hasBrokerSecret(family) && (
              <Button variant="outlined" disabled={loading || acting} onClick={() => void regenerate()}>
                {T.devices.regenerateSecret}
              </Button>
            )}
          </Stack>
        </CardContent>
        <LoadingOverlay open={loading || acting} />
      </Card>
    </Box>
  );
}
