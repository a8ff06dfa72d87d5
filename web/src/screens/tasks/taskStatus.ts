// The five task statuses (spec 03 section 2.10; integer values: docs/conventions.md "Codes of the domain") and their
// chip colours.
import { TASK_STATUS_CODES, T } from '@sentra/contracts';

export type ChipColor = 'default' | 'error' | 'info' | 'warning' | 'success';

const COLORS: Record<number, ChipColor> = { 1: 'error', 2: 'info', 3: 'warning', 4: 'success', 5: 'default' };

export const statusColor = (status: number): ChipColor => COLORS[status] ?? 'default';
export const STATUS_CHOICES = TASK_STATUS_CODES.map((code) => ({ code, label: T.tasks.status[code] ?? String(code) }));
