// The access tree the role tests share: Listrik (Gedung A (Lantai 1), Gedung B), Air.
import type { NavEntry } from '@sentra/contracts';

export const nav = (id: number, label: string, children: NavEntry[] = []): NavEntry => ({
  id,
  label,
  path: label.toLowerCase(),
  children,
});

export const TREE = [nav(1, 'Listrik', [nav(3, 'GedungA', [nav(5, 'Lantai1')]), nav(4, 'GedungB')]), nav(2, 'Air')];
