// Dashboard list (_dashboard_list_, spec 02 section 2): one card per dashboard with label, path and parent path; a
// click opens it; the card menu edits (_dashboard_conf_/{path}) or deletes after confirmation; 'Create Dashboard'.
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Box, Card, CardActionArea, CardContent, IconButton, Menu, Stack, Typography } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import DashboardIcon from '@mui/icons-material/SpaceDashboard';
import { contracts, T, type OutputOf } from '@sentra/contracts';
import { callOrThrow } from '../../api/call.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { CardListPage } from '../../ui/CardListPage.js';
import { IconMenuItem } from '../../ui/IconMenuItem.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { ROUTES, loadCall, useLoadState } from './dashboardCalls.js';

const s = T.dashboards.screens;
type NavItem = OutputOf<typeof contracts.navs.list>['navs'][number];
type Item = NavItem;

/** Where the list forwards to at once: "after saving or deleting it returns to the dashboard list, then the config view". */
export interface ListForward {
  then?: string;
}

export function DashboardListPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const location = useLocation();
  const { busy, act: confirmed } = useConfirmedAction();
  const forward = (location.state as ListForward | null)?.then;
  const [menu, setMenu] = useState<{ anchor: HTMLElement; item: Item } | null>(null);

  useEffect(() => {
    if (forward) navigate(forward, { replace: true });
  }, [forward, navigate]);

  const {
    state,
    busy: loading,
    reload,
  } = useLoadState(async () => {
    const r = await loadCall(contracts.navs.list);
    return { status: 'ready' as const, data: r.ok ? r.value.navs : ([] as Item[]) };
  }, []);
  const items = state.status === 'ready' ? state.data : null;
  const pathOf = useMemo(() => new Map((items ?? []).map((i) => [i.id, i.path])), [items]);

  const remove = (item: Item) =>
    confirmed({
      ask: { message: T.dashboards.confirm.removeDashboard },
      // spec 02 section 8: every refusal reads 'Hapus Dashboard Gagal'
      run: (failed) => callOrThrow(contracts.dashboards.remove, { id: item.id }, { fallback: failed }),
      success: T.dashboards.notify.removeSuccess,
      failed: T.dashboards.notify.removeFailed,
      done: reload,
    });

  const act = (what: (item: Item) => unknown) => () => {
    const item = menu?.item;
    setMenu(null);
    if (item) void what(item);
  };

  if (forward) return null;
  return (
    <CardListPage
      title={s.listTitle}
      subtitle={s.listSubtitle}
      add={{ to: area.to(ROUTES.add), label: s.createButton }}
      emptyText={s.empty}
      items={items}
      busy={loading || busy}
    >
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }}>
        {items?.map((item) => (
          <Card key={item.id} variant="outlined" data-testid="dashboard-list-card" sx={{ position: 'relative' }}>
            <CardActionArea onClick={() => navigate(area.to(ROUTES.view, { id: item.id }))} sx={{ height: '100%' }}>
              <CardContent sx={{ pr: 6 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
                  <DashboardIcon color="primary" fontSize="small" />
                  <Typography variant="subtitle1" sx={{ fontWeight: 700 }} noWrap data-testid="dashboard-label">
                    {item.label}
                  </Typography>
                </Stack>
                <Typography variant="caption" color="text.secondary" component="div">
                  {s.path}
                </Typography>
                <Typography
                  variant="body2"
                  sx={{ fontFamily: 'monospace', wordBreak: 'break-all', mb: 1 }}
                  data-testid="dashboard-path"
                >
                  /{item.path}
                </Typography>
                <Typography variant="caption" color="text.secondary" component="div">
                  {s.parentPath}
                </Typography>
                {item.parent !== null && pathOf.has(item.parent) ? (
                  <Typography
                    variant="body2"
                    sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
                    data-testid="dashboard-parent"
                  >{`/${pathOf.get(item.parent)}`}</Typography>
                ) : (
                  <Typography
                    variant="body2"
                    color="text.secondary"
                    sx={{ fontStyle: 'italic' }}
                    data-testid="dashboard-parent"
                  >
                    {s.noParent}
                  </Typography>
                )}
              </CardContent>
            </CardActionArea>
            <IconButton
              aria-label={s.cardMenu(item.label)}
              size="small"
              onClick={(e) => setMenu({ anchor: e.currentTarget, item })}
              sx={{ position: 'absolute', top: 8, right: 8 }}
            >
              <MoreVertIcon />
            </IconButton>
          </Card>
        ))}
      </Box>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)}>
        <IconMenuItem
          onClick={act((i) => navigate(area.to(ROUTES.conf, { path: i.path })))}
          icon={<EditIcon fontSize="small" />}
          text={s.edit}
        />
        <IconMenuItem onClick={act(remove)} icon={<DeleteIcon fontSize="small" color="error" />} text={s.remove} />
      </Menu>
    </CardListPage>
  );
}
