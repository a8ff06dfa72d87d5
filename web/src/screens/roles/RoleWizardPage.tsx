// The role wizard's screen for its five routes: add (_role_add_info_, _role_add_access_, _role_add_sort_) and edit
// (_role_edit_/{id}, _role_edit_sort_/{id}, `?step=sort` for Reorder). The machine decides the step; this screen
// keeps the address in step with it, and turns the browser's back button into the wizard's BACK.
import { useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useSelector } from '@xstate/react';
import { Button, Step, StepLabel, Stepper } from '@mui/material';
import { T } from '@sentra/contracts';
import { FormActions } from '../../ui/FormActions.js';
import { FormPageCard } from '../../ui/FormPageCard.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { WizardForm, WizardLoadFailed } from '../../ui/WizardParts.js';
import type { ScreenProps } from '../../shell/routeRegistry.js';
import { WIZARD_STEPS, type RoleWizardContext, type WizardStep } from './roleWizard.machine.js';
import { obtainWizard, releaseWizard, type HeldWizard } from './wizardStore.js';
import { RoleInfoStep } from './RoleInfoStep.js';
import { RoleAccessStep } from './RoleAccessStep.js';
import { RoleSortStep } from './RoleSortStep.js';

const ADD_ROUTES: Record<WizardStep, string> = {
  info: '_role_add_info_',
  access: '_role_add_access_',
  sort: '_role_add_sort_',
};
const EDIT_ROUTES: Record<WizardStep, string> = {
  info: '_role_edit_/{id}',
  access: '_role_edit_sort_/{id}',
  sort: '_role_edit_sort_/{id}',
};

type Snapshot = ReturnType<HeldWizard['actor']['getSnapshot']>;

/** The step a snapshot shows: its state, or during a save the step the save started from. */
function stepOf(s: Snapshot): WizardStep | null {
  if (s.matches('info') || s.matches('access') || s.matches('sort')) return s.value as WizardStep;
  if (s.matches('saving') || s.matches('savingInfo')) return s.context.returnTo;
  return null;
}

const stepIndex = (s: WizardStep) => WIZARD_STEPS.indexOf(s);

export function RoleWizardPage({ routeKey }: ScreenProps) {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const area = useAppArea();
  const mode = routeKey.startsWith('_role_add_') ? 'add' : 'edit';
  const roleId = Number(id);
  const routes = mode === 'add' ? ADD_ROUTES : EDIT_ROUTES;
  const routeStep: WizardStep =
    routeKey === '_role_add_access_'
      ? 'access'
      : routeKey === '_role_add_sort_'
        ? 'sort'
        : routeKey === '_role_edit_sort_/{id}'
          ? search.get('step') === 'sort'
            ? 'sort'
            : 'access'
          : 'info';
  const carried = (location.state as { roleWizard?: string } | null)?.roleWizard;
  const key = mode === 'add' ? 'add' : `edit:${roleId}`;

  const held = useMemo(
    () =>
      obtainWizard(
        key,
        carried,
        location.key,
        mode === 'add' ? { mode: 'add' } : { mode: 'edit', roleId, start: routeStep },
      ),
    // a new wizard only for another role or another visit; the step follows the machine
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key, carried, location.key],
  );
  const snapshot = useSelector(held.actor, (s) => s);
  const ctx: RoleWizardContext = snapshot.context;
  const send = held.actor.send;
  const step = stepOf(snapshot);

  // the browser's back button: the address moved to an earlier step than the machine's
  const lastRoute = useRef(routeKey);
  useEffect(() => {
    if (lastRoute.current === routeKey) return;
    lastRoute.current = routeKey;
    if (carried !== held.id) return;
    for (let guard = 0; guard < WIZARD_STEPS.length; guard++) {
      const now = stepOf(held.actor.getSnapshot());
      if (!now || routes[now] === routeKey || stepIndex(now) <= stepIndex(routeStep)) break;
      held.actor.send({ type: 'BACK' });
      if (stepOf(held.actor.getSnapshot()) === now) break;
    }
  }, [routeKey, routeStep, carried, held, routes]);

  // the address follows the machine (and carries the wizard's id)
  useEffect(() => {
    const s = held.actor.getSnapshot();
    if (s.status === 'done') {
      releaseWizard(held);
      navigate(area.to('_role_list_'));
      return;
    }
    const now = stepOf(s);
    const wanted = now ? routes[now] : routeKey;
    if (wanted === routeKey && carried === held.id) return;
    const forward = carried === held.id && now !== null && stepIndex(now) > stepIndex(routeStep);
    const to = wanted === routeKey ? location.pathname + location.search : area.to(wanted, { id: roleId });
    navigate(to, { replace: !forward, state: { roleWizard: held.id } });
  }, [
    snapshot,
    held,
    carried,
    routeKey,
    routeStep,
    routes,
    roleId,
    area,
    navigate,
    location.pathname,
    location.search,
  ]);

  const saving = snapshot.matches('saving') || snapshot.matches('savingInfo');
  const busy = snapshot.matches('loading') || saving;
  const hasNavs = ctx.tree.length > 0;
  const canBack = step === 'sort' || (step === 'access' && (ctx.mode === 'add' || ctx.start === 'info'));
  const primary =
    step === 'info'
      ? // editing, the info step saves before going on (roleWizard.machine.ts)
        {
          label: hasNavs && ctx.mode === 'add' ? T.common.next : T.common.save,
          event: { type: 'SUBMIT_INFO' } as const,
        }
      : step === 'access'
        ? { label: ctx.selected.length ? T.common.next : T.common.save, event: { type: 'NEXT' } as const }
        : { label: T.common.save, event: { type: 'SAVE' } as const };

  return (
    <FormPageCard title={mode === 'add' ? T.roles.addTitle : T.roles.editTitle} maxWidth={880} busy={busy}>
      <Stepper activeStep={step ? stepIndex(step) : 0} alternativeLabel sx={{ mb: 4 }}>
        {[T.roles.stepInfo, T.roles.stepAccess, T.roles.stepSort].map((label) => (
          <Step key={label}>
            <StepLabel>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      {snapshot.matches('failed') && <WizardLoadFailed error={ctx.loadError} onRetry={() => send({ type: 'RETRY' })} />}
      <WizardForm
        onSubmit={() => {
          if (step && !busy) send(primary.event);
        }}
      >
        {step === 'info' && <RoleInfoStep info={ctx.info} errors={ctx.infoErrors} disabled={busy} send={send} />}
        {step === 'access' && (
          <RoleAccessStep
            tree={ctx.tree}
            selected={ctx.selected}
            descendant={ctx.descendant}
            disabled={busy}
            send={send}
          />
        )}
        {step === 'sort' && <RoleSortStep tree={ctx.tree} selected={ctx.selected} disabled={busy} send={send} />}
        <FormActions
          onCancel={() => send({ type: 'CANCEL' })}
          busy={busy}
          cancelBusy={saving}
          label={primary.label}
          submit={Boolean(step)}
          between={
            canBack && (
              <Button onClick={() => send({ type: 'BACK' })} disabled={busy}>
                {T.common.back}
              </Button>
            )
          }
        />
      </WizardForm>
    </FormPageCard>
  );
}
