// The dashboard saves as a user meets a refusal (spec 02 sections 5 and 8): the manual JSON save shows the server's
// problem under Konfigurasi with its path inside the component and says 'Add Dashboard Gagal'; the dashboard form puts
// the problem under its field and says 'Tambah Dashboard Gagal'; a success says so and leaves the form.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { T } from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';
import { ConfirmProvider } from '../../ui/ConfirmDialog.js';
import { apiRecorder as api, resetApiRecorder } from '../../cards/api.test-kit.js';

vi.mock('../../api/client.js', async () => (await import('../../cards/api.test-kit.js')).recordedApiModule());

const { ManualComponentPage } = await import('./ManualComponentPage.js');
const { DashboardFormPage } = await import('./DashboardFormPage.js');
const { ROUTES } = await import('./routeKeys.js');

const ok = (body: object) => ({ code: 200, headers: {}, text: 'OK', body: { response_result: 0, ...body } });
const invalid = (errors: { path: string; message: string }[]) => ({
  code: 400,
  headers: {},
  text: 'Bad Request',
  body: { response_result: -10, message: T.common.invalidInput, errors },
});
const record = { id: 7, label: 'Energi', desc: '', parent: null, path: 'energi', conf_dashboard: { dashboard: {} } };
const shown = () => notices.snapshot().map((n) => `${n.level}: ${n.message}`);

function at(url: string, pattern: string, page: React.ReactNode) {
  render(
    <ConfirmProvider>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={pattern} element={page} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </ConfirmProvider>,
  );
}

beforeEach(resetApiRecorder);
afterEach(cleanup);

describe('the manual JSON save', () => {
  beforeEach(() => {
    api.answer = (path) => {
      if (path.includes('/nav/list')) return ok({ navs: [{ id: 7, path: 'energi', label: 'Energi' }] });
      if (path.includes('/nav/dashboard/')) return ok({ data: record });
      return invalid([{ path: 'conf_dashboard.dashboard.k1.config.max', message: 'Harus angka' }]);
    };
  });

  it("shows the server's problem under Konfigurasi, inside the component, and says 'Add Dashboard Gagal'", async () => {
    at(
      '/admin/demo/_dashboard_conf_/energi/manual_add',
      '/admin/:domain/_dashboard_conf_/:path/manual_add',
      <ManualComponentPage routeKey={ROUTES.manualAdd} />,
    );
    const key = await screen.findByRole('textbox', { name: T.dashboards.screens.componentKey });
    await waitFor(() =>
      expect(
        (screen.getByRole('textbox', { name: T.dashboards.screens.configuration }) as HTMLTextAreaElement).value,
      ).not.toBe(''),
    );
    fireEvent.change(key, { target: { value: 'k1' } });
    fireEvent.click(screen.getByRole('button', { name: T.common.save }));
    expect(await screen.findByText('config.max: Harus angka')).toBeTruthy();
    expect(shown()).toEqual([`error: ${T.dashboards.notify.manualAddFailed}`]);
    expect(api.calls.at(-1)?.input).toMatchObject({ id: 7, conf_dashboard: { dashboard: { k1: {} } } });
  });
});

describe('the dashboard form save', () => {
  it("puts the server's problem under its field and says 'Tambah Dashboard Gagal'; a success goes back", async () => {
    let refuse = true;
    api.answer = (path) => {
      if (path.includes('/nav/list')) return ok({ navs: [] });
      return refuse
        ? invalid([{ path: 'conf_dashboard.config.refresh', message: 'Refresh rate terlalu kecil' }])
        : ok({ id: 8, path: 'air' });
    };
    at('/admin/demo/_dashboard_add_', '/admin/:domain/_dashboard_add_', <DashboardFormPage routeKey={ROUTES.add} />);
    fireEvent.change(await screen.findByRole('textbox', { name: T.dashboards.form.name }), {
      target: { value: 'Air' },
    });
    fireEvent.click(screen.getByRole('button', { name: T.common.save }));
    expect(await screen.findByText('Refresh rate terlalu kecil')).toBeTruthy();
    expect(shown()).toEqual([`error: ${T.dashboards.notify.addFailed}`]);

    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: T.common.save }));
    expect(await screen.findByText('elsewhere')).toBeTruthy();
    expect(shown()).toContain(`success: ${T.dashboards.notify.addSuccess}`);
  });
});
