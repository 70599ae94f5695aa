/** Dates in the user's locale (UI.md): "Mar 3, 2025" on the card, the full time in its tooltip. */
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "medium" });
const numberFormat = new Intl.NumberFormat();

function parse(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export const formatDate = (iso: string): string => {
  const date = parse(iso);
  return date ? dateFormat.format(date) : iso;
};

export const formatDateTime = (iso: string): string => {
  const date = parse(iso);
  return date ? dateTimeFormat.format(date) : iso;
};

/** "1 active grant", "12 active grants". */
export const activeGrantsText = (count: number): string => `${numberFormat.format(count)} active ${count === 1 ? "grant" : "grants"}`;
