// A user's full name as the cards show it: first and last, the last name being optional.
export const fullName = (u: { first: string; last?: string | null }) =>
  [u.first, u.last].filter((s) => s && s.trim()).join(' ');
