// The storage warning: shown when the gateway says its storage is failing (asked at open, then pushed on the live
// `system` channel), gone when a push says it is ok again; nothing when the question fails.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { SYSTEM_LIVE, T, type SystemStatus } from '@sentra/contracts';
import { apiRecorder as api, resetApiRecorder } from '../cards/api.test-kit.js';
import { createLiveHub } from '../live/hub.js';
import { fakeTransport } from '../live/live.test-kit.js';
import { StorageBanner } from './StorageBanner.js';

vi.mock('../api/client.js', async () => (await import('../cards/api.test-kit.js')).recordedApiModule());
const transport = fakeTransport();
const hub = createLiveHub(transport);
vi.mock('../live/socket.js', () => ({ liveHub: () => hub }));

const answer = (status: SystemStatus) => () => ({
  code: 200,
  body: { response_result: 0, ...status },
  headers: {},
  text: 'OK',
});
const frame = () => act(() => new Promise((done) => requestAnimationFrame(() => done(undefined))));

beforeEach(resetApiRecorder);
afterEach(cleanup);

describe('the storage warning', () => {
  it('shows when the gateway says its storage is failing, and goes when a push says it is ok', async () => {
    api.answer = answer({ storage: 'failing', since: 1 });
    render(<StorageBanner />);
    expect(await screen.findByText(T.common.storageFailing)).toBeTruthy();
    expect(api.calls.map((c) => c.path)).toEqual(['/service/web/system/status']);
    expect(transport.subscribed).toEqual([{ channel: SYSTEM_LIVE.channel, params: {} }]);
    await act(async () => transport.fire(SYSTEM_LIVE.event, { storage: 'ok', since: null }));
    await frame();
    expect(screen.queryByText(T.common.storageFailing)).toBeNull();
  });

  it('appears on a push while open, without asking again', async () => {
    api.answer = answer({ storage: 'ok', since: null });
    render(<StorageBanner />);
    await act(async () => undefined);
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => transport.fire(SYSTEM_LIVE.event, { storage: 'failing', since: 5 }));
    await frame();
    expect(screen.getByRole('alert').textContent).toBe(T.common.storageFailing);
    expect(api.calls).toHaveLength(1);
  });

  it('shows nothing when the question fails', async () => {
    api.answer = () => ({ code: 500, body: { response_result: -99, message: 'x' }, headers: {}, text: '' });
    render(<StorageBanner />);
    await act(async () => undefined);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
