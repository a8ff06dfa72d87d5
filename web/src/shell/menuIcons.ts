// Icons of the side-menu entries.
import type { SvgIconComponent } from '@mui/icons-material';
import AppsIcon from '@mui/icons-material/Apps';
import DashboardIcon from '@mui/icons-material/Dashboard';
import SecurityIcon from '@mui/icons-material/Security';
import PeopleIcon from '@mui/icons-material/People';
import RouterIcon from '@mui/icons-material/Router';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import RuleIcon from '@mui/icons-material/Rule';
import AssignmentIcon from '@mui/icons-material/Assignment';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import InfoIcon from '@mui/icons-material/Info';
import InsertChartIcon from '@mui/icons-material/InsertChart';
import type { MenuIcon } from './menus.js';

export const menuIcons: Record<MenuIcon, SvgIconComponent> = {
  apps: AppsIcon,
  dashboard: DashboardIcon,
  role: SecurityIcon,
  users: PeopleIcon,
  devices: RouterIcon,
  tags: LocalOfferIcon,
  rules: RuleIcon,
  tasks: AssignmentIcon,
  credentials: VpnKeyIcon,
  about: InfoIcon,
  custom: InsertChartIcon,
};
