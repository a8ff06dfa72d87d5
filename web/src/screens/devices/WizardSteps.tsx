// The add wizard's steps before activation (spec 03 section 2.2): Kategori (cards with "Pilih" and the "Filter"),
// Informasi, the tag category choice, the tag values and the sensors JSON ("Konfigurasi"). Each only sends events.
import { useMemo, useState } from 'react';
import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Checkbox,
  Chip,
  FormControl,
  FormControlLabel,
  FormGroup,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import RouterIcon from '@mui/icons-material/Router';
import { T, deviceFamilies, type DeviceFamilyKey } from '@sentra/contracts';
import {
  flowOf,
  familyOf,
  tasmotaTopicAsked,
  type DeviceWizardContext,
  type DeviceWizardEvent,
} from './deviceWizard.machine.js';
import { TagValueFields } from './TagValueFields.js';
import { WizardForm } from '../../ui/WizardParts.js';

export interface StepProps {
  context: DeviceWizardContext;
  send(e: DeviceWizardEvent): void;
  busy: boolean;
}

/** The buttons under a step: Kembali/Batal on the left, the step's own actions on the right. */
export function StepActions({
  back,
  backLabel = T.common.back,
  children,
}: {
  back(): void;
  backLabel?: string;
  children: React.ReactNode;
}) {
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}>
      <Button onClick={back}>{backLabel}</Button>
      <Stack direction="row" spacing={1}>
        {children}
      </Stack>
    </Stack>
  );
}

const CARDS = deviceFamilies.flatMap((f) =>
  f.variants.map((v) => ({
    family: f.key as DeviceFamilyKey,
    variant: v.key,
    label: v.label,
    deviceType: v.deviceType,
    categoryText: f.categoryText,
    connection: f.connection,
    category: f.category,
  })),
);

export function CategoryStep({ context, send }: StepProps) {
  const [filter, setFilter] = useState<string>('');
  const cards = useMemo(() => CARDS.filter((c) => filter === '' || String(c.category) === filter), [filter]);
  return (
    <Box>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 2, justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      >
        <Typography color="text.secondary">{T.devices.categoryHint}</Typography>
        <FormControl size="small" sx={{ minWidth: 220 }}>
          <InputLabel id="device-category-filter" shrink>
            {T.devices.categoryFilter}
          </InputLabel>
          <Select
            labelId="device-category-filter"
            label={T.devices.categoryFilter}
            notched
            displayEmpty
            value={filter}
            onChange={(e) => setFilter(String(e.target.value))}
          >
            <MenuItem value="">{T.devices.allCategories}</MenuItem>
            {deviceFamilies.map((f) => (
              <MenuItem key={f.key} value={String(f.category)}>
                {f.categoryText}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
      <Box
        data-testid="device-type-cards"
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}
      >
        {cards.map((c) => {
          const chosen = context.draft.variant === c.variant && context.draft.family === c.family;
          return (
            <Card
              key={c.variant}
              variant="outlined"
              data-testid="device-type-card"
              sx={{ display: 'flex', flexDirection: 'column', borderColor: chosen ? 'primary.main' : undefined }}
            >
              <CardContent sx={{ flex: 1 }}>
                <RouterIcon color="primary" />
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
                  {c.label}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {c.deviceType}
                </Typography>
                <Stack direction="row" spacing={0.5} useFlexGap sx={{ mt: 1, flexWrap: 'wrap' }}>
                  <Chip size="small" label={c.categoryText} />
                  <Chip size="small" variant="outlined" label={T.devices.connection(c.connection)} />
                </Stack>
              </CardContent>
              <CardActions>
                <Button
                  variant={chosen ? 'contained' : 'outlined'}
                  fullWidth
                  aria-label={`${T.devices.choose} ${c.label}`}
                  onClick={() => send({ type: 'CHOOSE', family: c.family, variant: c.variant })}
                >
                  {T.devices.choose}
                </Button>
              </CardActions>
            </Card>
          );
        })}
      </Box>
      <StepActions back={() => send({ type: 'CANCEL' })} backLabel={T.common.cancel}>
        {null}
      </StepActions>
    </Box>
  );
}

/** The label of the button that leaves the info or tag step: Simpan when the device is added right then. */
const leaveLabel = (c: DeviceWizardContext) => (flowOf(familyOf(c.draft)) === 'direct' ? T.common.save : T.common.next);

export function InfoStep({ context, send, busy }: StepProps) {
  const { info } = context.draft;
  const variant = familyOf(context.draft)?.variants.find((v) => v.key === context.draft.variant);
  return (
    <WizardForm onSubmit={() => send({ type: 'SUBMIT_INFO' })} sx={{ maxWidth: 560 }}>
      {variant && (
        <Chip label={T.devices.chosenType(variant.label)} color="primary" variant="outlined" sx={{ mb: 2 }} />
      )}
      <Stack spacing={2}>
        <TextField
          label={T.devices.serialNumber}
          placeholder={T.devices.serialPlaceholder}
          value={info.serial_number}
          required
          disabled={busy}
          error={Boolean(context.infoErrors.serial_number)}
          helperText={context.infoErrors.serial_number}
          onChange={(e) => send({ type: 'EDIT_INFO', field: 'serial_number', value: e.target.value })}
          slotProps={{ htmlInput: { maxLength: 64 } }}
        />
        <TextField
          label={T.devices.name}
          value={info.name}
          required
          disabled={busy}
          error={Boolean(context.infoErrors.name)}
          helperText={context.infoErrors.name}
          onChange={(e) => send({ type: 'EDIT_INFO', field: 'name', value: e.target.value })}
        />
        {tasmotaTopicAsked(familyOf(context.draft)) && (
          <TextField
            label={T.devices.tasmotaTopic}
            value={info.topic ?? ''}
            disabled={busy}
            error={Boolean(context.infoErrors.topic)}
            helperText={context.infoErrors.topic ?? T.devices.tasmotaTopicHelp}
            onChange={(e) => send({ type: 'EDIT_INFO', field: 'topic', value: e.target.value })}
            slotProps={{
              htmlInput: { maxLength: 32, 'data-testid': 'tasmota-topic', style: { fontFamily: 'monospace' } },
            }}
          />
        )}
      </Stack>
      <StepActions back={() => send({ type: 'BACK' })}>
        {context.tagCategories.length > 0 && (
          <Button variant="outlined" disabled={busy} onClick={() => send({ type: 'OPEN_TAGS' })}>
            {T.devices.tagsButton}
          </Button>
        )}
        <Button type="submit" variant="contained" disabled={busy}>
          {leaveLabel(context)}
        </Button>
      </StepActions>
    </WizardForm>
  );
}

export function TagCategoryStep({ context, send, busy }: StepProps) {
  const chosen = context.draft.tagCat ?? [];
  return (
    <Box sx={{ maxWidth: 560 }}>
      <Typography sx={{ mb: 1 }}>{T.devices.chooseTagCategories}</Typography>
      <FormGroup>
        {context.tagCategories.map((c) => (
          <FormControlLabel
            key={c.prefix}
            control={
              <Checkbox
                checked={chosen.includes(c.prefix)}
                onChange={() => send({ type: 'TOGGLE_TAG_CATEGORY', prefix: c.prefix })}
              />
            }
            label={c.name}
          />
        ))}
      </FormGroup>
      <StepActions back={() => send({ type: 'BACK' })}>
        <Button variant="contained" disabled={busy} onClick={() => send({ type: 'SUBMIT_TAG_CATEGORIES' })}>
          {chosen.length ? T.common.next : leaveLabel(context)}
        </Button>
      </StepActions>
    </Box>
  );
}

export function TagValueStep({ context, send, busy }: StepProps) {
  return (
    <Box sx={{ maxWidth: 560 }}>
      <Typography sx={{ mb: 2 }}>{T.devices.chooseTags}</Typography>
      <TagValueFields
        categories={context.tagCategories}
        chosen={context.draft.tagCat ?? []}
        values={context.draft.tags}
        errors={context.tagErrors}
        disabled={busy}
        onChange={(prefix, values) => send({ type: 'SET_TAG_VALUES', prefix, values })}
      />
      <StepActions back={() => send({ type: 'BACK' })}>
        <Button variant="contained" disabled={busy} onClick={() => send({ type: 'SUBMIT_TAGS' })}>
          {leaveLabel(context)}
        </Button>
      </StepActions>
    </Box>
  );
}

export function SensorsStep({ context, send, busy }: StepProps) {
  return (
    <Box sx={{ maxWidth: 720 }}>
      <TextField
        label={T.devices.sensors}
        value={context.draft.sensors}
        multiline
        minRows={8}
        fullWidth
        disabled={busy}
        error={Boolean(context.sensorsError)}
        helperText={context.sensorsError ?? T.devices.sensorsHelp}
        onChange={(e) => send({ type: 'EDIT_SENSORS', value: e.target.value })}
        onBlur={() => send({ type: 'FORMAT_SENSORS' })}
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
      />
      <StepActions back={() => send({ type: 'BACK' })}>
        <Button variant="contained" disabled={busy} onClick={() => send({ type: 'SUBMIT_SENSORS' })}>
          {T.common.next}
        </Button>
      </StepActions>
    </Box>
  );
}
