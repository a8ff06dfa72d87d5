// The icon of a card (`view.pict`): a picture address (http(s) or a path), or one of these icon names; else the
// icon of the card's unit or kind.
import type { ReactElement } from 'react';
import { Box } from '@mui/material';
import BoltIcon from '@mui/icons-material/Bolt';
import ThermostatIcon from '@mui/icons-material/Thermostat';
import WaterDropIcon from '@mui/icons-material/WaterDrop';
import PowerSettingsNewIcon from '@mui/icons-material/PowerSettingsNew';
import SpeedIcon from '@mui/icons-material/Speed';
import PaymentsIcon from '@mui/icons-material/Payments';
import PercentIcon from '@mui/icons-material/Percent';
import MemoryIcon from '@mui/icons-material/Memory';
import TouchAppIcon from '@mui/icons-material/TouchApp';
import SendIcon from '@mui/icons-material/Send';
import EventIcon from '@mui/icons-material/Event';
import LocalGasStationIcon from '@mui/icons-material/LocalGasStation';
import LocalLaundryServiceIcon from '@mui/icons-material/LocalLaundryService';
import LightbulbIcon from '@mui/icons-material/Lightbulb';
import SensorsIcon from '@mui/icons-material/Sensors';
import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FileUploadIcon from '@mui/icons-material/FileUpload';
import ElectricMeterIcon from '@mui/icons-material/ElectricMeter';
import AirIcon from '@mui/icons-material/Air';

type Icon = typeof BoltIcon;

export const ICONS: Record<string, Icon> = {
  bolt: BoltIcon,
  power: PowerSettingsNewIcon,
  thermostat: ThermostatIcon,
  temperature: ThermostatIcon,
  water: WaterDropIcon,
  humidity: WaterDropIcon,
  speed: SpeedIcon,
  pressure: SpeedIcon,
  money: PaymentsIcon,
  percent: PercentIcon,
  chip: MemoryIcon,
  button: TouchAppIcon,
  send: SendIcon,
  date: EventIcon,
  fuel: LocalGasStationIcon,
  laundry: LocalLaundryServiceIcon,
  lamp: LightbulbIcon,
  sensor: SensorsIcon,
  toggle: ToggleOnIcon,
  download: FileDownloadIcon,
  upload: FileUploadIcon,
  meter: ElectricMeterIcon,
  air: AirIcon,
};

const BY_UNIT: Record<string, string> = {
  TEMP_CELCIUS: 'thermostat',
  TEMP_FAHRENHEIT: 'thermostat',
  TEMP_KELVIN: 'thermostat',
  DEGREE: 'thermostat',
  VOLT: 'bolt',
  AMPERE: 'bolt',
  WATT: 'power',
  KW: 'power',
  KWH: 'meter',
  OHM: 'bolt',
  PRESSURE_WATER: 'pressure',
  PRESSURE_AIR: 'air',
  HUMIDITY: 'humidity',
  RUPIAH: 'money',
  PERCENTAGE: 'percent',
  VERSION: 'chip',
  CUSTOM: 'sensor',
};

export const isPictureAddress = (pict: string) => /^(https?:\/\/|\/|data:image\/)/i.test(pict);

export function CardIcon({
  pict,
  fallback,
  size = 28,
  color = 'primary.main',
}: {
  pict?: unknown;
  fallback?: string;
  size?: number;
  color?: string;
}): ReactElement | null {
  const name = typeof pict === 'string' ? pict.trim() : '';
  if (name && isPictureAddress(name)) {
    return (
      <Box component="img" src={name} alt="" sx={{ width: size, height: size, objectFit: 'contain', flexShrink: 0 }} />
    );
  }
  const key = ICONS[name.toLowerCase()] ? name.toLowerCase() : (BY_UNIT[fallback ?? ''] ?? fallback ?? '');
  const Icon = ICONS[key] ?? null;
  if (!Icon) return null;
  // data-icon: which of the names is drawn (the editor's picker and tests read it)
  return <Icon sx={{ fontSize: size, color, flexShrink: 0 }} aria-hidden data-icon={key} />;
}
