// A broker secret shown once (issue 23): the gateway secret of a serial gateway just activated, or the password of an
// MQTT or Tasmota device just added or regenerated. Only its hash is kept by the server, so this is the one moment it
// can be copied — and so the screen says everything a device needs beside it (issue 38): host, port, TLS, the
// WebSocket URL, its topics, an example message, a ready mosquitto_pub line and, for Tasmota, the Backlog line to
// paste into its console, each with a copy button (the guide: contracts' connectionGuide).
import { Alert, Box, Chip, IconButton, InputAdornment, Stack, TextField, Tooltip, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { connectionGuide, T, type ConnectionKind, type DeviceFamily, type GatewayConnection } from '@sentra/contracts';
import { copyText } from '../../ui/clipboard.js';
import { notices } from '../../ui/snackbar/notices.js';
import { activationOf } from './activationKinds.js';

const K = T.devices.connect;

export interface ShownSecret {
  secret: string;
  /** the username the device signs in with */
  username: string;
  /** the broker's address for MQTT and Tasmota devices */
  brokerUrl?: string;
  /** a serial gateway's settings */
  connection?: GatewayConnection;
  /** what the device is, for its topics: a generic MQTT device (its id), a Tasmota (its Topic), a gateway */
  kind?: ConnectionKind;
  deviceId?: number;
  topic?: string;
}

/** The secret an add answer shows once (gateway secret, MQTT or Tasmota password), or undefined. */
export function shownSecretOf(
  family: DeviceFamily | undefined,
  d: Record<string, unknown> | undefined,
): ShownSecret | undefined {
  const reader = family && activationOf(family).secret;
  const shown = d && reader?.read(d);
  if (!d || !reader || !shown) return undefined;
  return { ...shown, kind: reader.kind, deviceId: typeof d.id === 'number' ? d.id : undefined };
}

/** Whether the family's devices sign in on the broker with a secret the console can regenerate. */
export const hasBrokerSecret = (family: DeviceFamily | undefined) => Boolean(family && activationOf(family).secret);

/** MQTT over WebSocket on the console's own address: `/mqtt`, wss when the console is served over https. */
export const consoleWsUrl = (loc: Pick<Location, 'protocol' | 'host'> = window.location) =>
  `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/mqtt`;

function CopyButton({ label, value }: { label: string; value: string }) {
  return (
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
  );
}

function CopyField({
  label,
  value,
  testId,
  multiline,
}: {
  label: string;
  value: string;
  testId: string;
  multiline?: boolean;
}) {
  return (
    <TextField
      label={label}
      value={value}
      fullWidth
      multiline={multiline}
      slotProps={{
        htmlInput: {
          readOnly: true,
          'data-testid': testId,
          spellCheck: false,
          style: { fontFamily: 'monospace', ...(multiline ? { fontSize: 13, wordBreak: 'break-all' } : {}) },
        },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <CopyButton label={label} value={value} />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="subtitle2" component="h4" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

export function BrokerSecretPanel({ shown }: { shown: ShownSecret }) {
  const c = shown.connection;
  const kind = shown.kind ?? (c ? 'gateway' : 'mqtt');
  const brokerUrl = c?.mqtt_url ?? shown.brokerUrl;
  const ws = consoleWsUrl();
  const guide = brokerUrl
    ? connectionGuide(
        {
          kind,
          brokerUrl,
          wsUrl: ws,
          username: shown.username,
          password: shown.secret,
          deviceId: shown.deviceId,
          topic: shown.topic,
          uid: c?.client_id,
        },
        K.words,
      )
    : undefined;
  return (
    <Stack spacing={2} data-testid="broker-secret">
      <Typography variant="h6" component="h3">
        {c ? T.devices.gatewaySettingsTitle : K.title}
      </Typography>
      <Alert severity="warning">{c ? T.devices.secretShownOnce : T.devices.passwordShownOnce}</Alert>
      {guide && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr 1fr' } }}>
          <CopyField label={T.devices.brokerHost} value={guide.host} testId="broker-host" />
          <CopyField label={T.devices.brokerPort} value={String(guide.port)} testId="broker-port" />
          <TextField
            label={K.tls}
            value={guide.tls ? K.tlsOn : K.tlsOff}
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'broker-tls' } }}
          />
        </Box>
      )}
      {brokerUrl && <CopyField label={T.devices.infoBrokerUrl} value={brokerUrl} testId="broker-url" />}
      <CopyField label={T.devices.brokerWsUrl} value={ws} testId="broker-ws-url" />
      {c && <CopyField label={T.devices.clientId} value={c.client_id} testId="broker-client-id" />}
      <CopyField label={T.devices.infoUsername} value={shown.username} testId="broker-username" />
      <CopyField
        label={c ? T.devices.gatewaySecret : T.devices.infoPassword}
        value={shown.secret}
        testId="broker-secret-value"
      />
      {c && (
        <>
          <CopyField label={T.devices.upTopic} value={c.up_topic} testId="broker-up-topic" />
          <CopyField label={T.devices.downTopic} value={c.down_topic} testId="broker-down-topic" />
        </>
      )}
      {guide && (
        <>
          <Section title={K.topics}>
            <Stack spacing={0.5} data-testid="broker-topics">
              {guide.topics.map((t) => (
                <Stack
                  key={t.topic}
                  direction="row"
                  spacing={1}
                  sx={{ alignItems: 'center', flexWrap: 'wrap' }}
                  data-testid="broker-topic"
                >
                  <Chip
                    size="small"
                    variant="outlined"
                    color={t.direction === 'publish' ? 'primary' : 'secondary'}
                    label={t.direction === 'publish' ? K.publish : K.subscribe}
                  />
                  <Typography sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>{t.topic}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t.what}
                  </Typography>
                  <CopyButton label={t.topic} value={t.topic} />
                </Stack>
              ))}
            </Stack>
          </Section>
          <Section title={K.example}>
            <CopyField label={guide.example.topic} value={guide.example.payload} testId="broker-example" multiline />
          </Section>
          <CopyField label={K.mosquittoPub} value={guide.mosquittoPub} testId="broker-mosquitto-pub" multiline />
          {guide.tasmotaBacklog && (
            <Box>
              <CopyField label={K.backlog} value={guide.tasmotaBacklog} testId="broker-tasmota-backlog" multiline />
              <Typography variant="caption" color="text.secondary">
                {K.backlogHint}
              </Typography>
            </Box>
          )}
        </>
      )}
    </Stack>
  );
}
