// The console frame (spec 01 section 2 "Menus"): a collapsible 265 px side menu — collapsed and overlaid on screens
// up to 5000 px wide — and a top bar with the page title, a full-screen toggle and the access menu.
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import {
  AppBar,
  Box,
  Collapse,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Toolbar,
  Tooltip,
  Typography,
  useMediaQuery,
} from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import AccountCircle from '@mui/icons-material/AccountCircle';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { T } from '@sentra/contracts';
import { menuIcons } from './menuIcons.js';
import type { MenuEntry, MenuModel } from './menus.js';
import { SentraLogo } from '../ui/SentraLogo.js';
import { PageTitleProvider, usePageTitleState } from './pageTitle.js';

// the Tugas entry's unread count listens on the live socket: loaded after the shell, so the socket client stays off the
// shell's first load
const TaskMenuBadge = lazy(() =>
  import('../screens/tasks/TaskMenuBadge.js').then((m) => ({ default: m.TaskMenuBadge })),
);
// the storage warning listens on the live socket too: loaded after the shell for the same reason
const StorageBanner = lazy(() => import('./StorageBanner.js').then((m) => ({ default: m.StorageBanner })));

export const DRAWER_WIDTH = 265;
/** up to this width the side menu starts collapsed and overlays the page */
export const OVERLAY_MAX_WIDTH = 5000;

export interface LayoutProps {
  menu: MenuModel;
  title: string;
  /** the logo's destination and tooltip (the tenant's logo leads to the application list) */
  logo: { to: string; title: string };
  /** shown under the logo: the application, when inside one */
  caption?: string;
  userName?: string;
  /** the API entry of the access menu: an external document (the OpenAPI document outside applications) */
  apiHref?: string;
  /** the API entry as a console route (the Refresh Token page inside an application); wins over apiHref */
  apiRoute?: string;
  onLogout(): void;
  children: ReactNode;
}

function MenuItems({
  entries,
  depth = 0,
  onNavigate,
}: {
  entries: readonly MenuEntry[];
  depth?: number;
  onNavigate(): void;
}) {
  const { pathname } = useLocation();
  const [open, setOpen] = useState<Record<string, boolean>>({});
  return (
    <>
      {entries.map((e) => {
        const Icon = menuIcons[e.icon];
        const selected = pathname === e.to || pathname.startsWith(`${e.to}/`);
        if (e.children?.length) {
          const expanded = open[e.id] ?? e.children.some((c) => pathname.startsWith(c.to));
          return (
            <Box key={e.id}>
              <ListItemButton sx={{ pl: 2 + depth * 2 }} onClick={() => setOpen((o) => ({ ...o, [e.id]: !expanded }))}>
                <ListItemIcon>
                  <Icon />
                </ListItemIcon>
                <ListItemText primary={e.label} />
                {expanded ? <ExpandLess /> : <ExpandMore />}
              </ListItemButton>
              <Collapse in={expanded} unmountOnExit>
                <List disablePadding>
                  <MenuItems entries={e.children} depth={depth + 1} onNavigate={onNavigate} />
                </List>
              </Collapse>
            </Box>
          );
        }
        return (
          <ListItemButton
            key={e.id}
            component={Link}
            to={e.to}
            selected={selected}
            onClick={onNavigate}
            sx={{ pl: 2 + depth * 2 }}
            data-testid="menu-entry"
          >
            <ListItemIcon>
              <Icon />
            </ListItemIcon>
            <ListItemText primary={e.label} />
            {e.id === '_task_list_' && (
              <Suspense fallback={null}>
                <TaskMenuBadge />
              </Suspense>
            )}
          </ListItemButton>
        );
      })}
    </>
  );
}

function useFullScreen(): [boolean, () => void] {
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const on = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  return [full, toggle];
}

export function Layout({ menu, title, logo, caption, userName, apiHref, apiRoute, onLogout, children }: LayoutProps) {
  const overlay = useMediaQuery(`(max-width:${OVERLAY_MAX_WIDTH}px)`, { noSsr: true });
  const [open, setOpen] = useState(!overlay);
  const [full, toggleFull] = useFullScreen();
  const [accessAnchor, setAccessAnchor] = useState<HTMLElement | null>(null);
  useEffect(() => setOpen(!overlay), [overlay]);
  const closeIfOverlay = () => overlay && setOpen(false);
  const [shownTitle, setNamedTitle] = usePageTitleState(title);

  const drawer = (
    <Box sx={{ width: DRAWER_WIDTH }} role="navigation">
      <Toolbar sx={{ flexDirection: 'column', alignItems: 'flex-start', justifyContent: 'center', py: 1 }}>
        <Tooltip title={logo.title}>
          <Box
            component={Link}
            to={logo.to}
            title={logo.title}
            aria-label={logo.title}
            onClick={closeIfOverlay}
            sx={{ display: 'inline-flex', color: 'inherit', textDecoration: 'none' }}
          >
            <SentraLogo />
          </Box>
        </Tooltip>
        {caption && (
          <Typography variant="caption" color="text.secondary" noWrap sx={{ maxWidth: '100%' }}>
            {caption}
          </Typography>
        )}
      </Toolbar>
      <Divider />
      <List data-testid="side-menu">
        <MenuItems entries={menu.main} onNavigate={closeIfOverlay} />
      </List>
      {menu.system.length > 0 && (
        <>
          <Divider />
          <List data-testid="side-menu-system">
            <MenuItems entries={menu.system} onNavigate={closeIfOverlay} />
          </List>
        </>
      )}
    </Box>
  );

  const shifted = open && !overlay;
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar
        position="fixed"
        color="inherit"
        elevation={1}
        sx={{ ml: shifted ? `${DRAWER_WIDTH}px` : 0, width: shifted ? `calc(100% - ${DRAWER_WIDTH}px)` : '100%' }}
      >
        <Toolbar>
          <IconButton edge="start" aria-label={T.shell.toggleMenu} onClick={() => setOpen((o) => !o)} sx={{ mr: 1 }}>
            <MenuIcon />
          </IconButton>
          <Typography variant="h6" component="h1" noWrap sx={{ flexGrow: 1 }} data-testid="page-title">
            {shownTitle}
          </Typography>
          <Tooltip title={full ? T.shell.exitFullScreen : T.shell.fullScreen}>
            <IconButton aria-label={full ? T.shell.exitFullScreen : T.shell.fullScreen} onClick={toggleFull}>
              {full ? <FullscreenExitIcon /> : <FullscreenIcon />}
            </IconButton>
          </Tooltip>
          <Tooltip title={userName ?? T.shell.account}>
            <IconButton aria-label={T.shell.account} onClick={(e) => setAccessAnchor(e.currentTarget)}>
              <AccountCircle />
            </IconButton>
          </Tooltip>
          <Menu
            anchorEl={accessAnchor}
            open={accessAnchor !== null}
            onClose={() => setAccessAnchor(null)}
            anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
            transformOrigin={{ vertical: 'top', horizontal: 'right' }}
          >
            {userName && <MenuItem disabled>{userName}</MenuItem>}
            {apiRoute ? (
              <MenuItem
                component={Link}
                to={apiRoute}
                onClick={() => {
                  setAccessAnchor(null);
                  closeIfOverlay();
                }}
              >
                {T.shell.api}
              </MenuItem>
            ) : (
              apiHref && (
                <MenuItem
                  component="a"
                  href={apiHref}
                  target="_blank"
                  rel="noopener"
                  onClick={() => setAccessAnchor(null)}
                >
                  {T.shell.api}
                </MenuItem>
              )
            )}
            <MenuItem
              onClick={() => {
                setAccessAnchor(null);
                onLogout();
              }}
            >
              {T.shell.logout}
            </MenuItem>
          </Menu>
        </Toolbar>
      </AppBar>
      <Drawer
        variant={overlay ? 'temporary' : 'persistent'}
        open={open}
        onClose={() => setOpen(false)}
        ModalProps={{ keepMounted: true }}
        sx={{
          width: shifted ? DRAWER_WIDTH : 0,
          flexShrink: 0,
          '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
        }}
      >
        {drawer}
      </Drawer>
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 3 } }}>
        <Toolbar />
        <Suspense fallback={null}>
          <StorageBanner />
        </Suspense>
        <PageTitleProvider setTitle={setNamedTitle}>{children}</PageTitleProvider>
      </Box>
    </Box>
  );
}
