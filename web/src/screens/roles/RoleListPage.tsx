// Role list (_role_list_, spec 01 sections 2 "Roles", 7, 8): title Role, the search 'Cari berdasarkan nama role'
// (case-insensitive substring, on Enter or the button), the floating 'Role Baru' button, the two empty states, and two
// views: cards, whose Hapus really deletes, and the table (Role, Deskripsi, Akses, Aksi), whose Hapus only shows
// 'Maaf, fitur hapus role belum tersedia'.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Fab,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import ViewModuleIcon from '@mui/icons-material/ViewModule';
import TableRowsIcon from '@mui/icons-material/TableRows';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import { contracts, T, type OutputOf } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { notices } from '../../ui/snackbar/notices.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { accessSummary } from './accessSummary.js';
import { callAndNotify, callOrThrow } from '../../api/call.js';

type Role = OutputOf<typeof contracts.roles.list>['data'][number];
type View = 'cards' | 'table';

interface RoleActions {
  navsExist: boolean;
  editInfo(r: Role): void;
  setAccess(r: Role): void;
  reorder(r: Role): void;
  remove(r: Role): void;
}

function ActionButtons({ role, actions }: { role: Role; actions: RoleActions }) {
  return (
    <>
      <Button size="small" onClick={() => actions.editInfo(role)}>
        {T.roles.editInfo}
      </Button>
      {actions.navsExist && (
        <Button size="small" onClick={() => actions.setAccess(role)}>
          {T.roles.setAccess}
        </Button>
      )}
      {role.navsObj.length > 0 && (
        <Button size="small" onClick={() => actions.reorder(role)}>
          {T.roles.reorder}
        </Button>
      )}
      <Button size="small" color="error" onClick={() => actions.remove(role)}>
        {T.roles.delete}
      </Button>
    </>
  );
}

function RoleCards({ roles, actions }: { roles: Role[]; actions: RoleActions }) {
  return (
    <Box
      data-testid="role-cards"
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))' }}
    >
      {roles.map((r) => {
        const access = accessSummary(r.navsObj.map((n) => n.label));
        const sysNavs = r.sys_navs.filter((s) => s.checked);
        return (
          <Card key={r.id} variant="outlined" data-testid="role-card" sx={{ display: 'flex', flexDirection: 'column' }}>
            <CardContent sx={{ flexGrow: 1 }}>
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 1 }}>
                <Typography variant="h6" component="h3" sx={{ fontWeight: 700, wordBreak: 'break-word' }}>
                  {r.name}
                </Typography>
                <Chip size="small" variant="outlined" label={T.roles.userCount(r.user_count)} />
              </Stack>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
                {r.description || T.roles.noDescription}
              </Typography>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mb: 1 }}>
                {sysNavs.map((s) => (
                  <Chip key={s.id} size="small" color="primary" variant="outlined" label={s.label} />
                ))}
              </Stack>
              <Typography variant="caption" color="text.secondary" component="p">
                {T.roles.columnAccess}
              </Typography>
              <Typography variant="body2">{access || T.roles.noAccess}</Typography>
            </CardContent>
            <CardActions sx={{ flexWrap: 'wrap', justifyContent: 'flex-end' }}>
              <ActionButtons role={r} actions={actions} />
            </CardActions>
          </Card>
        );
      })}
    </Box>
  );
}

function RoleTable({ roles, actions }: { roles: Role[]; actions: RoleActions }) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" data-testid="role-table">
        <TableHead>
          <TableRow>
            <TableCell>{T.roles.columnRole}</TableCell>
            <TableCell>{T.roles.columnDescription}</TableCell>
            <TableCell>{T.roles.columnAccess}</TableCell>
            <TableCell align="right">{T.roles.columnActions}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {roles.map((r) => (
            <TableRow key={r.id} hover>
              <TableCell sx={{ fontWeight: 600 }}>{r.name}</TableCell>
              <TableCell>{r.description}</TableCell>
              <TableCell>
                {accessSummary(r.navsObj.map((n) => n.label)) || (
                  <Typography variant="body2" color="text.secondary">
                    {T.roles.noAccess}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <ActionButtons role={r} actions={actions} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export function RoleListPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const { busy: acting, act: confirmed } = useConfirmedAction();
  const [params, setParams] = useSearchParams();
  const view: View = params.get('view') === 'table' ? 'table' : 'cards';
  const [term, setTerm] = useState('');
  const [applied, setApplied] = useState('');
  const [roles, setRoles] = useState<Role[] | null>(null);
  const [navsExist, setNavsExist] = useState(false);
  const [loading, setLoading] = useState(false);
  const busy = loading || acting;

  const load = useCallback(async (name: string) => {
    setLoading(true);
    const o = await callAndNotify(contracts.roles.list, name ? { name } : {});
    setLoading(false);
    setRoles((prev) => (o.ok ? o.value.data : (prev ?? [])));
  }, []);

  useEffect(() => {
    void load(applied);
  }, [load, applied]);
  useEffect(() => {
    let live = true;
    // Atur Akses needs navigation items to exist; a failed look-up just hides it
    void api.call(contracts.navs.list).then((r) => live && setNavsExist(isOk(r) && r.body.navs.length > 0));
    return () => {
      live = false;
    };
  }, []);

  const search = (e?: FormEvent) => {
    e?.preventDefault();
    const next = term.trim();
    if (next === applied) void load(next);
    else setApplied(next);
  };

  const actions: RoleActions = {
    navsExist,
    editInfo: (r) => navigate(area.to('_role_edit_/{id}', { id: r.id })),
    setAccess: (r) => navigate(area.to('_role_edit_sort_/{id}', { id: r.id })),
    reorder: (r) => navigate(`${area.to('_role_edit_sort_/{id}', { id: r.id })}?step=sort`),
    remove: (r) => {
      if (view === 'table') return notices.info(T.roles.deleteUnavailable);
      return confirmed({
        ask: { message: T.roles.deleteConfirm(r.name) },
        run: (failed) => callOrThrow(contracts.roles.remove, { id: r.id }, failed),
        success: T.roles.deleteSuccess,
        failed: T.roles.deleteFailed,
        done: () => load(applied),
      });
    },
  };

  const empty = roles !== null && roles.length === 0;
  return (
    <Box sx={{ position: 'relative', minHeight: 240, pb: 10 }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ mb: 3, justifyContent: 'space-between', alignItems: { md: 'center' } }}
      >
        <Typography variant="h4" component="h2" sx={{ fontWeight: 700 }}>
          {T.roles.title}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Box component="form" role="search" onSubmit={search} sx={{ flexGrow: 1 }}>
            <TextField
              size="small"
              name="name"
              placeholder={T.roles.search}
              value={term}
              onChange={(e) => setTerm(e.target.value)}
              sx={{ width: { xs: '100%', sm: 320 } }}
              slotProps={{
                htmlInput: { 'aria-label': T.roles.search, maxLength: 30 },
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <IconButton type="submit" aria-label={T.roles.searchButton} edge="end" size="small">
                        <SearchIcon />
                      </IconButton>
                    </InputAdornment>
                  ),
                },
              }}
            />
          </Box>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={view}
            onChange={(_, v: View | null) => v && setParams(v === 'table' ? { view: 'table' } : {}, { replace: true })}
          >
            <ToggleButton value="cards" aria-label={T.roles.viewCards}>
              <Tooltip title={T.roles.viewCards}>
                <ViewModuleIcon fontSize="small" />
              </Tooltip>
            </ToggleButton>
            <ToggleButton value="table" aria-label={T.roles.viewTable}>
              <Tooltip title={T.roles.viewTable}>
                <TableRowsIcon fontSize="small" />
              </Tooltip>
            </ToggleButton>
          </ToggleButtonGroup>
        </Stack>
      </Stack>
      {empty ? (
        <Stack sx={{ alignItems: 'center', py: 8, color: 'text.secondary' }} spacing={1} data-testid="role-empty">
          <SearchOffIcon sx={{ fontSize: 56 }} />
          <Typography variant="h6" component="p">
            {applied ? T.roles.noneFound : T.roles.empty}
          </Typography>
        </Stack>
      ) : (
        roles &&
        (view === 'table' ? (
          <RoleTable roles={roles} actions={actions} />
        ) : (
          <RoleCards roles={roles} actions={actions} />
        ))
      )}
      <Fab
        color="primary"
        variant="extended"
        onClick={() => navigate(area.to('_role_add_info_'))}
        sx={{ position: 'fixed', right: 24, bottom: 24, textTransform: 'none' }}
      >
        <AddIcon sx={{ mr: 1 }} />
        {T.roles.newRole}
      </Fab>
      <LoadingOverlay open={roles === null || busy} />
    </Box>
  );
}
