// EMBEDDED_DASHBOARD: another page in a frame — an http(s) address (`view.url`, or the model's `config.url`), or
// another dashboard of this application by id (`view.dashboard_id`), shown with the console's own view route.
import { Box } from '@mui/material';
import { T } from '@sentra/contracts';
import { areaOf } from '../../api/area.js';
import type { CardViewProps } from '../common/definition.js';
import { CardMessage } from '../common/CardMessage.js';

export function embeddedAddress(
  view: { url?: unknown; dashboard_id?: unknown },
  model: Record<string, unknown> | undefined,
  pathname: string,
): string | undefined {
  const url =
    typeof view.url === 'string'
      ? view.url
      : typeof (model?.config as { url?: unknown } | undefined)?.url === 'string'
        ? (model!.config as { url: string }).url
        : undefined;
  if (url && /^https?:\/\//i.test(url.trim())) return url.trim();
  const id = Number(view.dashboard_id);
  if (Number.isInteger(id) && id > 0) {
    const area = areaOf(pathname);
    if (!area.domain) return undefined;
    return `${area.isTenant ? `/admin/${area.domain}` : `/${area.domain}`}/_dashboard_view_/${id}`;
  }
  return undefined;
}

export default function EmbeddedView({
  component,
  view,
}: CardViewProps<{ url?: string; dashboard_id?: number; title?: string }>) {
  const src = embeddedAddress(view, component.model, typeof window === 'undefined' ? '/' : window.location.pathname);
  if (!src) {
    return <CardMessage>{T.cardViews.noEmbeddedUrl}</CardMessage>;
  }
  return (
    <Box
      component="iframe"
      data-testid="card-frame"
      title={view.title ?? component.key}
      src={src}
      loading="lazy"
      sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
      sx={{ width: '100%', height: '100%', border: 0, borderRadius: 1 }}
    />
  );
}
