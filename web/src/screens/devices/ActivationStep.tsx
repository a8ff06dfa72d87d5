// The activation screens (spec 03 section 2.3), one per activation kind of the family table: the token screen
// ("Aktivasi perangkat baru", read-only token checked in the background, "Refresh token", Simpan once connected), the
// UID screen ("Aktivasi" checks, then "Simpan" adds), LoRa (Dev EUI, OTAA key, LoRa server), Emma (plugin and
// "Plugin Details") and Imou (both ids). The form is disabled while a call runs.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  FormControl,
  FormHelperText,
  IconButton,
  InputAdornment,
  InputLabel,
  Link,
  MenuItem,
  Select,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { T } from '@sentra/contracts';
import { activationOf, familyOf, type ActivationField, type ActivationScreen } from './deviceWizard.machine.js';
import { StepActions, type StepProps } from './WizardSteps.js';
import { WizardForm } from '../../ui/WizardParts.js';
import { copyText } from '../../ui/clipboard.js';
import { notices } from '../../ui/snackbar/notices.js';
import { useAppArea } from '../../ui/useAppArea.js';

/** The ZLAN activation's one server option (spec 03 section 2.3). */
const ZLAN_SERVER_OPTION = 8;

export function ActivationStep(props: StepProps & { state: string }) {
  const f = familyOf(props.context.draft);
  // the family's activation kind names its screen (activationKinds.ts); the UID screen also asks whether it is ZLAN
  const screen = f && activationOf(f).screen?.state;
  const Screen = screen && screen !== 'uid' ? SCREENS[screen] : undefined;
  return (
    <Box sx={{ maxWidth: 620 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 2 }}>
        {T.devices.activationTitle}
      </Typography>
      {screen === 'uid' && <UidActivation {...props} zlan={f?.key === 'zlan'} />}
      {Screen && <Screen {...props} />}
    </Box>
  );
}

function field(
  props: StepProps,
  name: ActivationField,
  label: string,
  extra: { multiline?: boolean; minRows?: number; mono?: boolean; helper?: string } = {},
) {
  const { context, send, busy } = props;
  const error = context.activationErrors[name];
  return (
    <TextField
      label={label}
      value={context.draft.activation[name]}
      required
      fullWidth
      disabled={busy}
      multiline={extra.multiline}
      minRows={extra.minRows}
      error={Boolean(error)}
      helperText={error || extra.helper}
      onChange={(e) => send({ type: 'EDIT_ACTIVATION', field: name, value: e.target.value })}
      slotProps={{ htmlInput: extra.mono ? { spellCheck: false, style: { fontFamily: 'monospace' } } : {} }}
    />
  );
}

/** An activation screen's form: its fields, then Kembali and its buttons (by default Simpan); Enter submits. */
function ActivationForm({ step, actions, children }: { step: StepProps; actions?: ReactNode; children: ReactNode }) {
  return (
    <WizardForm onSubmit={() => step.send({ type: 'SUBMIT_ACTIVATION' })}>
      {children}
      <StepActions back={() => step.send({ type: 'BACK' })}>
        {actions ?? (
          <Button type="submit" variant="contained" disabled={step.busy}>
            {T.common.save}
          </Button>
        )}
      </StepActions>
    </WizardForm>
  );
}

function TokenActivation(props: StepProps & { state: string }) {
  const { context, send, busy } = props;
  const token = context.token ?? '';
  const connected = context.tokenConnected;
  return (
    <ActivationForm
      step={props}
      actions={
        <>
          <Button variant="outlined" disabled={busy} onClick={() => send({ type: 'REFRESH_TOKEN' })}>
            {T.devices.refreshToken}
          </Button>
          <Button type="submit" variant="contained" disabled={busy || !connected}>
            {T.common.save}
          </Button>
        </>
      }
    >
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {T.devices.tokenHint}
      </Typography>
      <TextField
        label={T.devices.token}
        value={token}
        fullWidth
        slotProps={{
          htmlInput: { readOnly: true, 'data-testid': 'activation-token', style: { fontFamily: 'monospace' } },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={T.refreshToken.copy}>
                  <span>
                    <IconButton
                      aria-label={T.refreshToken.copy}
                      disabled={!token}
                      onClick={async () => {
                        if (!(await copyText(token))) notices.error(T.common.copyFailed);
                      }}
                    >
                      <ContentCopyIcon />
                    </IconButton>
                  </span>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1.5, alignItems: 'center' }} data-testid="token-status">
        {connected ? (
          <CheckCircleIcon color="success" fontSize="small" />
        ) : token ? (
          <CircularProgress size={16} />
        ) : null}
        <Typography variant="body2" color={connected ? 'success.main' : 'text.secondary'}>
          {connected ? T.devices.tokenConnected : token ? T.devices.tokenWaiting : ''}
        </Typography>
      </Stack>
    </ActivationForm>
  );
}

function UidActivation(props: StepProps & { zlan: boolean }) {
  const { context, send, busy } = props;
  const checked = Boolean(context.uidChecked) && context.uidChecked === context.draft.activation.dev_uid.trim();
  return (
    <ActivationForm
      step={props}
      actions={
        <Button type="submit" variant="contained" disabled={busy}>
          {checked ? T.common.save : T.devices.activate}
        </Button>
      }
    >
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {T.devices.uidHint}
      </Typography>
      <Stack spacing={2}>
        {field(props, 'dev_uid', T.devices.uid)}
        {props.zlan && (
          <FormControl fullWidth disabled={busy}>
            <InputLabel id="zlan-server">{T.devices.server}</InputLabel>
            <Select labelId="zlan-server" label={T.devices.server} value={ZLAN_SERVER_OPTION}>
              <MenuItem value={ZLAN_SERVER_OPTION}>{T.devices.loraServerOption}</MenuItem>
            </Select>
          </FormControl>
        )}
        {checked && <Alert severity="success">{T.devices.uidChecked}</Alert>}
      </Stack>
    </ActivationForm>
  );
}

function LoraActivation(props: StepProps) {
  const { context, send, busy } = props;
  const area = useAppArea();
  const error = context.activationErrors.network_server_id;
  return (
    <ActivationForm step={props}>
      <Stack spacing={2}>
        {field(props, 'dev_eui', T.devices.devEui, { mono: true })}
        {field(props, 'otaa_key', T.devices.otaaKey, { mono: true })}
        <FormControl fullWidth required disabled={busy} error={Boolean(error)}>
          <InputLabel id="lora-server">{T.devices.networkServer}</InputLabel>
          <Select
            labelId="lora-server"
            label={T.devices.networkServer}
            value={context.draft.activation.network_server_id}
            onChange={(e) =>
              send({ type: 'EDIT_ACTIVATION', field: 'network_server_id', value: String(e.target.value) })
            }
          >
            {context.loraServers.map((s) => (
              <MenuItem key={s.id} value={String(s.id)}>{`${s.name} (${s.mac})`}</MenuItem>
            ))}
          </Select>
          {error && <FormHelperText>{error}</FormHelperText>}
        </FormControl>
        {context.loraServers.length === 0 && <Alert severity="info">{T.devices.noLoraServers}</Alert>}
        <Link component={RouterLink} to={area.to('_lora_list_')}>
          {T.devices.manageLoraServers}
        </Link>
      </Stack>
    </ActivationForm>
  );
}

function PluginActivation(props: StepProps) {
  const { context, send, busy } = props;
  const error = context.activationErrors.emma_plugin;
  return (
    <ActivationForm step={props}>
      <Stack spacing={2}>
        <FormControl fullWidth required disabled={busy} error={Boolean(error)}>
          <InputLabel id="emma-plugin">{T.devices.emmaPlugin}</InputLabel>
          <Select
            labelId="emma-plugin"
            label={T.devices.emmaPlugin}
            value={context.draft.activation.emma_application_plugin_id}
            onChange={(e) => send({ type: 'SELECT_PLUGIN', applicationId: String(e.target.value) })}
          >
            {context.emmaPlugins.map((p) => (
              <MenuItem key={p.emma_application_plugin_id} value={p.emma_application_plugin_id}>
                {p.emma_plugin_name}
              </MenuItem>
            ))}
          </Select>
          {error && <FormHelperText>{error}</FormHelperText>}
        </FormControl>
        {field(props, 'emma_device_plugin_details', T.devices.emmaPluginDetails, {
          multiline: true,
          minRows: 6,
          mono: true,
        })}
      </Stack>
    </ActivationForm>
  );
}

function CloudActivation(props: StepProps) {
  return (
    <ActivationForm step={props}>
      <Stack spacing={2}>
        {field(props, 'imou_device_id', T.devices.imouDeviceId)}
        {field(props, 'imou_application_id', T.devices.imouApplicationId)}
      </Stack>
    </ActivationForm>
  );
}

/** The activation screens by the wizard state that draws them (the UID screen is drawn with its ZLAN flag). */
const SCREENS: Readonly<Record<Exclude<ActivationScreen, 'uid'>, (props: StepProps & { state: string }) => ReactNode>> =
  {
    token: TokenActivation,
    lora: LoraActivation,
    plugin: PluginActivation,
    cloud: CloudActivation,
  };
