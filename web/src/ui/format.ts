// Display formats of spec 01 section 1: dates in en-GB style, numbers in id-ID.
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
const numbers = new Intl.NumberFormat('id-ID');

export const formatDateTime = (epochMs: number) => dateTime.format(new Date(epochMs));
export const formatNumber = (n: number) => numbers.format(n);
