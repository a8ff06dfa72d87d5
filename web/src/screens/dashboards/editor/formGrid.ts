// The editor form's responsive grid: one column on phones, two on tablets, `columns` from md up.
export const formGrid = (columns: number) => ({
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: '1fr', sm: `repeat(${Math.min(columns, 2)}, 1fr)`, md: `repeat(${columns}, 1fr)` },
});
