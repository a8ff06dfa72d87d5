// Render tests of the web service cards: what they print (the API is replaced by a recorder).
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { T, type CardTypeCode } from '@sentra/contracts';
import { renderCard, stubLayout } from '../cards.test-kit.js';
import { apiRecorder as api, resetApiRecorder } from '../api.test-kit.js';

vi.mock('../../api/client.js', async () => (await import('../api.test-kit.js')).recordedApiModule());

beforeAll(() => stubLayout());
beforeEach(resetApiRecorder);
afterEach(cleanup);

describe.each([['WEBSERVICE'], ['WEBSERVICE_FETCH']] as [CardTypeCode][])('%s', (cat) => {
  it("prints what the gateway fetched from the card's endpoint", async () => {
    api.answer = () => ({
      code: 200,
      body: {
        response_result: 0,
        status: 200,
        content_type: 'application/json',
        data: { suhu: 21.5, status: 'ok' },
        fetched_at: Date.now(),
      },
      headers: {},
      text: 'OK',
    });
    renderCard(cat, { key: 'cuaca' });
    const fields = await screen.findByTestId('webservice-fields');
    expect(fields.textContent).toBe('suhu21,50statusok');
    expect(api.calls[0]).toMatchObject({
      path: '/fetch/web/ws/{dashboardId}/{componentKey}',
      input: { dashboardId: 1, componentKey: 'cuaca' },
    });
  });

  it('shows why an endpoint was refused', async () => {
    api.answer = () => ({
      code: 400,
      body: { response_result: -50, message: T.cardViews.webserviceNotAllowed },
      headers: {},
      text: 'Bad Request',
    });
    renderCard(cat, { key: 'cuaca' });
    expect(await screen.findByText(T.cardViews.webserviceNotAllowed)).toBeTruthy();
  });
});
