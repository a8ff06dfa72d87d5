// A broker secret shown once (issue 23): the gateway secret of a serial gateway just activated, or the password of an
// MQTT or Tasmota device just added or regenerated. Only its hash is kept by the server, so this is the one moment it
// can be copied. Gateways get the exact connection settings beside it (client id = username = UID, password = secret,
// gw/<uid>/up and gw/<uid>/down), each with a copy button.
import { Alert, IconButton, InputAdornment, Stack, TextField, Tooltip, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { T, type DeviceFamily, type GatewayConnection } from '@sentra/contracts';
import { copyText } from '../../ui/clipboard.js';
import { notices } from '../../ui/snackbar/notices.js';

export interface ShownSecret {
  secret: string;
  /** the username the device signs in with */
  username: string;
  /** the broker's address for MQTT and Tasmota devices */
  brokerUrl?: string;
  /** a serial gateway's settings */
  connection?: GatewayConnection;
}

/** The secret an add answer shows once (gateway secret, MQTT or Tasmota password), or undefined. */
export function shownSecretOf(
  family: DeviceFamily | undefined,
  d: Record<string, unknown> | undefined,
): ShownSecret | undefined {
  if (!family || !d) return undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  if (family.activation === 'uid' && text(d.gateway_secret)) {
    const connection = d.gateway_connection as GatewayConnection;
    return { secret: text(d.gateway_secret), username: connection.username, connection };
  }
  if (family.activation === 'mqtt' && text(d.store_mqtt_password))
    return {
      secret: text(d.store_mqtt_password),
      username: text(d.store_mqtt_username),
      brokerUrl: text(d.store_mqtt_url),
    };
  if (family.activation === 'tasmota' && text(d.password))
    return { secret: text(d.password), username: text(d.username), brokerUrl: text(d.device_mqtt_url) };
  return undefined;
}

/** Whether the family's devices sign in on the broker with a secret the console can regenerate. */
export const hasBrokerSecret = (family: DeviceFamily | undefined) =>
  family?.activation === 'uid' || family?.activation === 'mqtt' || family?.activation === 'tasmota';

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <TextField
      label={label}
      value={value}
      fullWidth
      slotProps={{
        htmlInput: { readOnly: true, 'data-testid': testId, spellCheck: false, style: { fontFamily: 'monospace' } },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={T.devices.copyValue(label)}>
                <IconButton
                  aria-label={T.devices.copyValue(label)}
                  onClick={async () => {
                    if (await copyText(value)) notices.success(T.devices.copied);
                    else notices.error(T.common.copyFailed);
                  }}
                >
                  <ContentCopyIcon />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

export function BrokerSecretPanel({ shown }: { shown: ShownSecret }) {
  const c = shown.connection;
  return (
    <Stack spacing={2} data-testid="broker-secret">
      {c && (
        <Typography variant="h6" component="h3">
          {T.devices.gatewaySettingsTitle}
        </Typography>
      )}
      <Alert severity="warning">{c ? T.devices.secretShownOnce : T.devices.passwordShownOnce}</Alert>
      {c ? (
        <>
          <CopyField label={T.devices.brokerHost} value={c.mqtt_host} testId="broker-host" />
          <CopyField label={T.devices.brokerPort} value={String(c.mqtt_port)} testId="broker-port" />
          <CopyField label={T.devices.brokerWsUrl} value={c.ws_url} testId="broker-ws-url" />
          <CopyField label={T.devices.clientId} value={c.client_id} testId="broker-client-id" />
          <CopyField label={T.devices.infoUsername} value={c.username} testId="broker-username" />
          <CopyField label={T.devices.gatewaySecret} value={shown.secret} testId="broker-secret-value" />
          <CopyField label={T.devices.upTopic} value={c.up_topic} testId="broker-up-topic" />
          <CopyField label={T.devices.downTopic} value={c.down_topic} testId="broker-down-topic" />
        </>
      ) : (
        <>
          {shown.brokerUrl && <CopyField label={T.devices.infoBrokerUrl} value={shown.brokerUrl} testId="broker-url" />}
          <CopyField label={T.devices.infoUsername} value={shown.username} testId="broker-username" />
          <CopyField label={T.devices.infoPassword} value={shown.secret} testId="broker-secret-value" />
        </>
      )}
    </Stack>
  );
}
