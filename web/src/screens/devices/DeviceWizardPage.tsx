// "Tambah Perangkat" (spec 03 section 2.2): the wizard's one screen for its routes. The machine decides the step; the
// address follows it (forward steps are pushed, fallbacks replace), and an address changed by the browser (back
// button, typed address) is sent to the machine as GOTO, which falls back when the draft does not allow that step.
import { useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSelector } from '@xstate/react';
import { Box, Button, Card, CardContent, Stack, Step, StepLabel, Stepper, Typography } from '@mui/material';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { T, deviceFamilies } from '@sentra/contracts';
import type { ScreenProps } from '../../shell/routeRegistry.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useConfirm } from '../../ui/ConfirmDialog.js';
import { useAppArea, type AppArea } from '../../ui/useAppArea.js';
import {
  familyOf,
  stepOfSnapshot,
  stepsOf,
  type DeviceWizardContext,
  type WizardStep,
} from './deviceWizard.machine.js';
import { obtainWizard, releaseWizard } from './wizardStore.js';
import { DeviceRoute, familySegment } from './deviceRoutes.js';
import { CategoryStep, InfoStep, SensorsStep, TagCategoryStep, TagValueStep } from './WizardSteps.js';
import { ActivationStep } from './ActivationStep.js';
import { BrokerSecretPanel, shownSecretOf } from './BrokerSecretPanel.js';

const ROUTE_STEP: Record<string, WizardStep> = {
  [DeviceRoute.add]: 'category',
  [DeviceRoute.addInfo]: 'info',
  [DeviceRoute.addTagCategories]: 'tagCategories',
  [DeviceRoute.addTags]: 'tags',
  [DeviceRoute.addSensors]: 'sensors',
  [DeviceRoute.addActivation]: 'activation',
  [DeviceRoute.addActivationOf]: 'activation',
};

const STEP_LABEL: Record<WizardStep, string> = {
  category: T.devices.stepCategory,
  info: T.devices.stepInfo,
  tagCategories: T.devices.stepTags,
  tags: T.devices.stepTags,
  sensors: T.devices.stepSensors,
  activation: T.devices.stepActivation,
};

/** The address of a step of this draft. */
function pathOf(area: AppArea, step: WizardStep, c: DeviceWizardContext): string {
  if (step !== 'activation') return area.to(Object.keys(ROUTE_STEP).find((k) => ROUTE_STEP[k] === step)!);
  const f = familyOf(c.draft);
  const segment = f && familySegment(f);
  return segment ? area.to(DeviceRoute.addActivationOf, { family: segment }) : area.to(DeviceRoute.addActivation);
}

export function DeviceWizardPage({ routeKey }: ScreenProps) {
  const area = useAppArea();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const confirm = useConfirm();
  const routeStep = ROUTE_STEP[routeKey] ?? 'category';
  // eslint-disable-next-line react-hooks/exhaustive-deps -- one wizard per application; the step follows the machine
  const actor = useMemo(() => obtainWizard(area.domain, routeStep), [area.domain]);
  const snapshot = useSelector(actor, (s) => s);
  const ctx = snapshot.context;
  const step = stepOfSnapshot(snapshot.value, ctx);
  const wanted = step ? pathOf(area, step, ctx) : null;
  const resolved = useRef(false);
  // added with a broker secret (gateway secret, device password): shown here once, before the list
  const saved =
    snapshot.status === 'done'
      ? (ctx.saved as (Record<string, unknown> & { category: number }) | undefined)
      : undefined;
  const shown = shownSecretOf(saved && deviceFamilies.find((f) => f.category === saved.category), saved);
  const toList = () => {
    releaseWizard();
    navigate(area.to(DeviceRoute.list));
  };

  // added (the machine notified "Sukses") or cancelled (Batal): back to the list, unless a secret is to be copied first
  useEffect(() => {
    if (snapshot.status !== 'done' || shown) return;
    toList();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the machine finished
  }, [snapshot.status, navigate, area]);

  // the address follows the machine
  useEffect(() => {
    if (!wanted || wanted === pathname) {
      if (wanted) resolved.current = true;
      return;
    }
    navigate(wanted, { replace: !resolved.current });
    resolved.current = true;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the machine moved
  }, [wanted]);

  // the machine follows an address the browser changed
  useEffect(() => {
    const s = actor.getSnapshot();
    const now = stepOfSnapshot(s.value, s.context);
    if (!now || pathOf(area, now, s.context) === pathname) return;
    actor.send({ type: 'GOTO', step: routeStep });
    const after = actor.getSnapshot();
    const next = stepOfSnapshot(after.value, after.context);
    const target = next ? pathOf(area, next, after.context) : null;
    if (target && target !== pathname) navigate(target, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the address changed
  }, [pathname]);

  const busy =
    snapshot.matches('loading') ||
    snapshot.matches('saving') ||
    snapshot.matches({ activation: { uid: 'checking' } }) ||
    snapshot.matches({ activation: { token: 'generating' } });
  const send = actor.send;
  const steps = stepsOf(ctx.draft);
  const active = step ? steps.indexOf(step === 'tagCategories' ? 'tags' : step) : 0;
  const stateName = JSON.stringify(snapshot.value);

  const reset = async () => {
    if (await confirm({ message: T.devices.resetConfirm })) send({ type: 'RESET' });
  };

  return (
    <Box>
      <Stack direction="row" sx={{ mb: 2, justifyContent: 'space-between', alignItems: 'flex-start' }}>
        <Typography variant="h4" component="h2" sx={{ fontWeight: 700 }}>
          {T.devices.addTitle}
        </Typography>
        <Button startIcon={<RestartAltIcon />} onClick={() => void reset()} disabled={busy}>
          {T.devices.reset}
        </Button>
      </Stack>
      {/* the draft is over once added: no step to show beside the secret */}
      {!shown && (
        <Stepper activeStep={Math.max(active, 0)} alternativeLabel sx={{ mb: 3 }}>
          {steps.map((s) => (
            <Step key={s}>
              <StepLabel>{STEP_LABEL[s]}</StepLabel>
            </Step>
          ))}
        </Stepper>
      )}
      <Card variant="outlined" sx={{ position: 'relative', minHeight: 200 }}>
        <CardContent>
          {step === 'category' && <CategoryStep context={ctx} send={send} busy={busy} />}
          {step === 'info' && <InfoStep context={ctx} send={send} busy={busy} />}
          {step === 'tagCategories' && <TagCategoryStep context={ctx} send={send} busy={busy} />}
          {step === 'tags' && <TagValueStep context={ctx} send={send} busy={busy} />}
          {step === 'sensors' && <SensorsStep context={ctx} send={send} busy={busy} />}
          {step === 'activation' && <ActivationStep context={ctx} send={send} busy={busy} state={stateName} />}
          {shown && (
            <Box sx={{ maxWidth: 620 }}>
              <BrokerSecretPanel shown={shown} />
              <Button variant="contained" sx={{ mt: 3 }} onClick={toList}>
                {T.devices.secretDone}
              </Button>
            </Box>
          )}
        </CardContent>
        <LoadingOverlay open={busy} />
      </Card>
    </Box>
  );
}
