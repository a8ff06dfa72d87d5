// Add component (editor) `_dashboard_conf_/{path}/add` and Edit component (editor)
// `_dashboard_conf_/{path}/edit/{componentKey}` (spec 02 section 2): the headless componentEditor drawn — key,
// refresh, decimals, category and type selectors ('Semua variabel akan di hapus!'), Penanda, position and size, the
// queries of the card type, local variables, Visualisasi — and the save of the whole conf_dashboard (id and
// conf_dashboard), confirmed for an edited card or an existing key.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  Divider,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import PaletteIcon from '@mui/icons-material/Palette';
import {
  T,
  type ConfDashboardInput,
  type ComponentInput,
  type DashboardRecord,
  type VariableValue,
} from '@sentra/contracts';
import {
  cardTypeOf,
  componentEditorFrom,
  componentEditorReducer,
  firstError,
  newComponentEditor,
  noDataByTags,
  queryOf,
  querySlots,
  saveQuestion,
  sizeHelp,
  type ComponentEditorEvent,
  type ComponentEditorState,
  type QuerySlot,
} from './componentEditor.js';
import { EMPTY_SOURCE, type SelectionSource } from './selectionSource.js';
import { LoadingOverlay } from '../../../ui/LoadingOverlay.js';
import { useConfirm } from '../../../ui/ConfirmDialog.js';
import { notices } from '../../../ui/snackbar/notices.js';
import { useAppArea } from '../../../ui/useAppArea.js';
import type { ScreenProps } from '../../../shell/routeRegistry.js';
import { loadSource, saveConf } from './editorCalls.js';
import { useLoad } from '../../../api/call.js';
import { usePageTitle } from '../../../shell/pageTitle.js';
import { dashboardByPath } from '../dashboardCalls.js';
import { QueryEditorDialog } from './QueryEditorDialog.js';
import { VisualisasiDialog } from './VisualisasiDialog.js';
import { seriesChoices } from './viewFields.js';
import { VariableButtons } from './VariableButtons.js';
import { TypeSelectors } from './TypeSelectors.js';
import { QueryRow } from './QueryRow.js';
import { formGrid } from './formGrid.js';
import { COMPONENT_EDIT_ROUTE, DASHBOARD_CONF_ROUTE } from './routeKeys.js';
import { ComponentPreview } from './ComponentPreview.js';
import { filterParams } from '../../../cards/index.js';
import { defaultViewFilter } from '../viewFilter.js';

const t = T.dashboards;
const e = t.editor;

/** `filter`: the query the preview is evaluated with, the dashboard's default filter as its view opens with it */
type Loaded = {
  record: DashboardRecord;
  conf: ConfDashboardInput;
  state: ComponentEditorState | undefined;
  filter: Record<string, unknown>;
};

export function ComponentEditorPage({ routeKey }: ScreenProps) {
  const editing = routeKey === COMPONENT_EDIT_ROUTE;
  const { path = '', componentKey = '' } = useParams();
  const area = useAppArea();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState<string>();
  const [state, setState] = useState<ComponentEditorState>();
  const [globals, setGlobals] = useState<Record<string, VariableValue>>({});
  const [source, setSource] = useState<SelectionSource>(EMPTY_SOURCE);
  const [querying, setQuerying] = useState<QuerySlot>();
  const [visualising, setVisualising] = useState(false);
  const [saving, setSaving] = useState(false);
  const toConf = useCallback((p: string) => navigate(area.to(DASHBOARD_CONF_ROUTE, { path: p })), [area, navigate]);

  const send = useCallback((event: ComponentEditorEvent) => setState((s) => s && componentEditorReducer(s, event)), []);

  // the top bar names the dashboard the component belongs to, as on its view (issue 28)
  usePageTitle(loaded?.record.label);

  useLoad(
    () => dashboardByPath(path),
    (r) => {
      if (r.status !== 'ready') {
        if (r.status === 'failed' && r.notFound) setLoadError(e.dashboardNotFound);
        return;
      }
      const conf = r.data.conf_dashboard as ConfDashboardInput;
      const existing = (conf.dashboard ?? {}) as Record<string, ComponentInput>;
      let initial: ComponentEditorState | undefined = newComponentEditor({ existing });
      if (editing) {
        const component = existing[componentKey];
        if (!component) {
          setLoadError(e.componentNotFound);
          return;
        }
        initial = componentEditorFrom(component, existing);
      }
      setLoaded({
        record: r.data,
        conf,
        state: initial,
        filter: filterParams(defaultViewFilter(conf.var, Date.now())),
      });
      setState(initial);
      setGlobals({ ...((conf.var ?? {}) as Record<string, VariableValue>) });
    },
    [path, componentKey, editing],
  );

  // the trees follow the card's tags: 'Tidak ada data berdasarkan penanda!' when they select nothing
  const tagKey = state?.tags.join('\n') ?? '';
  useLoad(
    async () => (loaded ? loadSource({ tags: tagKey ? tagKey.split('\n') : [] }) : undefined),
    (s) => s && setSource(s),
    [loaded, tagKey],
  );

  // the 'Semua variabel akan di hapus!' confirmation of a category or type change
  const pending = state?.pending;
  useEffect(() => {
    if (!pending) return;
    void confirm({ title: t.confirm.clearVariables, message: e.clearVariablesQuestion }).then((yes) =>
      send({ type: yes ? 'confirmChoice' : 'cancelChoice' }),
    );
  }, [pending, confirm, send]);

  // a save waits for its confirmation (edited card, existing key), then stores the whole conf_dashboard; the editor's
  // machine owns the question's turn and the call, so this is no useConfirmedAction
  const submit = state?.submit;
  useEffect(() => {
    if (!state || !loaded) return;
    if (submit === 'confirm') {
      const question = saveQuestion(state)!;
      void confirm(question).then((yes) => send({ type: yes ? 'confirmSave' : 'cancelSave' }));
      return;
    }
    if (submit !== 'ready' || !state.component) return;
    const component = state.component;
    send({ type: 'saved' });
    const conf: ConfDashboardInput = {
      ...loaded.conf,
      var: globals,
      dashboard: { ...(loaded.conf.dashboard ?? {}), [component.key]: component },
    };
    setSaving(true);
    void saveConf(loaded.record.id, conf).then((r) => {
      setSaving(false);
      if (r.ok) {
        notices.success(t.notify.editSuccess);
        toConf(r.value.path || loaded.record.path);
      }
    });
    // keyed on `submit` alone: the state read here is this render's, and a save must run once per confirmation
  }, [submit]);

  const save = () => {
    if (!state) return;
    const next = componentEditorReducer(state, { type: 'save' });
    setState(next);
    const message = firstError(next);
    if (message) notices.warning(message);
  };

  if (loadError)
    return (
      <Card sx={{ maxWidth: 1000 }}>
        <CardContent>
          <Alert severity="error">{loadError}</Alert>
          <Button sx={{ mt: 2 }} onClick={() => navigate(-1)}>
            {T.common.back}
          </Button>
        </CardContent>
      </Card>
    );

  if (loaded && !state)
    return (
      <Card sx={{ maxWidth: 1000 }}>
        <CardContent>
          <Alert severity="info">{e.manualOnly}</Alert>
          <Button sx={{ mt: 2 }} onClick={() => toConf(path)}>
            {T.common.back}
          </Button>
        </CardContent>
      </Card>
    );

  const cat = state ? cardTypeOf(state) : undefined;
  const busy = !state || saving;
  const err = state?.errors ?? {};
  const emptyByTags = state ? noDataByTags(state.tags, source) : undefined;

  return (
    <Card sx={{ position: 'relative', maxWidth: 1100 }}>
      <LoadingOverlay open={busy} />
      <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
          {editing ? e.editTitle : e.addTitle}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {loaded?.record.label}
        </Typography>
        {state && (
          <Stack spacing={3}>
            <Section>
              <Box sx={formGrid(3)}>
                <TextField
                  label={e.key}
                  required
                  size="small"
                  value={state.key}
                  error={!!err.key}
                  helperText={err.key ?? (editing ? T.credentials.readOnly : ' ')}
                  onChange={(ev) => send({ type: 'changeKey', key: ev.target.value })}
                  slotProps={{ input: { readOnly: editing }, htmlInput: { maxLength: 30 } }}
                />
                <TextField
                  label={e.refresh}
                  required
                  size="small"
                  type="number"
                  value={state.refresh}
                  error={!!err.refresh}
                  helperText={err.refresh ?? t.form.refreshHelper}
                  onChange={(ev) => send({ type: 'changeRefresh', refresh: ev.target.value })}
                  slotProps={{ htmlInput: { min: 0, step: 100 } }}
                />
                <TextField
                  label={e.decimals}
                  size="small"
                  type="number"
                  value={state.decimal}
                  error={!!err.decimal}
                  helperText={err.decimal ?? ' '}
                  onChange={(ev) => send({ type: 'changeDecimal', decimal: ev.target.value })}
                  slotProps={{ htmlInput: { min: 0, max: 5, step: 1 } }}
                />
              </Box>
            </Section>

            <Section title={e.category}>
              <TypeSelectors state={state} send={send} error={err.category} />
            </Section>

            <Section title={e.tags}>
              <Autocomplete
                multiple
                size="small"
                options={source.tags}
                value={state.tags}
                onChange={(_, tags) => send({ type: 'changeTags', tags })}
                renderInput={(params) => <TextField {...params} label={e.tags} />}
              />
              {emptyByTags && (
                <Alert severity="warning" sx={{ mt: 1 }}>
                  {emptyByTags}
                </Alert>
              )}
            </Section>

            <Section title={`${e.position} · ${e.size}`}>
              <Box sx={formGrid(4)}>
                {(['x', 'y', 'w', 'h'] as const).map((field) => {
                  const group = field === 'x' || field === 'y' ? 'position' : 'size';
                  const help = group === 'size' ? sizeHelp(cat) : undefined;
                  return (
                    <TextField
                      key={field}
                      label={e[field]}
                      required
                      size="small"
                      type="number"
                      value={state.position[field]}
                      error={!!err[group]}
                      helperText={(field === 'x' || field === 'w' ? err[group] : undefined) ?? help ?? ' '}
                      onChange={(ev) => send({ type: 'changePosition', position: { [field]: ev.target.value } })}
                      slotProps={{ htmlInput: { min: field === 'w' || field === 'h' ? 1 : 0, step: 1 } }}
                    />
                  );
                })}
              </Box>
            </Section>

            {cat && querySlots(cat).length > 0 && (
              <Section title={T.dashboards.query.query}>
                <Stack spacing={1.5} divider={<Divider flexItem />}>
                  {querySlots(cat).map((slot) => (
                    <QueryRow
                      key={slot.role}
                      slot={slot}
                      query={queryOf(state, slot.role)}
                      source={source}
                      error={err[`model.${slot.role}`]}
                      onEdit={() => setQuerying(slot)}
                      onClear={() => send({ type: 'setQuery', role: slot.role, query: undefined })}
                    />
                  ))}
                </Stack>
                {err.model && (
                  <Typography color="error" variant="body2" sx={{ mt: 1 }}>
                    {err.model}
                  </Typography>
                )}
              </Section>
            )}

            <Section title={e.preview}>
              <ComponentPreview dashboardId={loaded!.record.id} state={state} filter={loaded!.filter} />
            </Section>

            <Typography variant="body2" color="text.secondary">
              {e.localVariables(Object.keys(state.vars).length)} · {e.viewSet(Object.keys(state.view).length)}
            </Typography>

            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1.5}
              sx={{ justifyContent: 'flex-end', flexWrap: 'wrap' }}
            >
              <VariableButtons
                scope="local"
                global={globals}
                local={state.vars}
                loadSource={() => loadSource({ tags: state.tags })}
                onSave={(key, value) => send({ type: 'setVariable', key, value })}
                onRemove={(scope, key) => {
                  if (scope === 'local') send({ type: 'removeVariable', key });
                  else setGlobals(({ [key]: _removed, ...rest }) => rest);
                }}
              />
              <Button
                variant="outlined"
                startIcon={<PaletteIcon />}
                disabled={!cat}
                onClick={() => setVisualising(true)}
              >
                {t.variables.visualization}
              </Button>
              <Box sx={{ flexGrow: 1 }} />
              <Button onClick={() => toConf(path)}>{T.common.cancel}</Button>
              <Button variant="contained" onClick={save} disabled={busy}>
                {T.common.save}
              </Button>
            </Stack>
          </Stack>
        )}
      </CardContent>
      {state && querying && (
        <QueryEditorDialog
          title={`${T.dashboards.query.query} · ${e.roles[querying.role]}`}
          slot={querying}
          initial={queryOf(state, querying.role)}
          tags={state.tags}
          onClose={() => setQuerying(undefined)}
          onSave={(query) => {
            send({ type: 'setQuery', role: querying.role, query });
            setQuerying(undefined);
          }}
        />
      )}
      {state && cat && visualising && (
        <VisualisasiDialog
          cat={cat}
          view={state.view}
          deviceTags={source.filterTags}
          series={seriesChoices(state.model)}
          preview={(view) => (
            <ComponentPreview dashboardId={loaded!.record.id} state={{ ...state, view }} filter={loaded!.filter} />
          )}
          onClose={() => setVisualising(false)}
          onSave={(view) => {
            send({ type: 'setView', view });
            setVisualising(false);
          }}
        />
      )}
    </Card>
  );
}

function Section({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <Box component="section">
      {title && (
        <Typography
          variant="subtitle2"
          color="text.secondary"
          sx={{ mb: 1.5, textTransform: 'uppercase', letterSpacing: 0.5 }}
        >
          {title}
        </Typography>
      )}
      {children}
    </Box>
  );
}
