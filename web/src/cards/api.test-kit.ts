// The API replaced by a recorder, for the card tests that check what a card sends: in the test file
//   vi.mock('<path to>/api/client.js', async () => (await import('<path to>/cards/api.test-kit.js')).recordedApiModule());
//   beforeEach(resetApiRecorder);
// then `apiRecorder.calls` holds every call and `apiRecorder.answer` says what the gateway answers. Imports nothing of
// the application, so the mock's factory can load it.
import { T } from '@sentra/contracts';
import { notices } from '../ui/snackbar/notices.js';

interface Answer {
  code: number;
  body: unknown;
  headers: Record<string, string>;
  text: string;
}

export const apiRecorder = {
  calls: [] as { path: string; input: any; opts?: any }[],
  answer: (_path: string): Answer | Promise<unknown> => ({
    code: 200,
    body: { response_result: 0, message: 'ok' },
    headers: {},
    text: 'OK',
  }),
};

/** what `api/client.js` exports, recording */
export function recordedApiModule() {
  return {
    api: {
      call: async (def: { path: string }, input: any, opts?: any) => {
        apiRecorder.calls.push({ path: def.path, input, opts });
        return apiRecorder.answer(def.path);
      },
      request: async () => ({ code: 200, body: null, headers: {}, text: 'OK' }),
    },
  };
}

/** no calls yet, every call answered with success, no notice on screen */
export function resetApiRecorder() {
  apiRecorder.calls.length = 0;
  apiRecorder.answer = () => ({
    code: 200,
    body: { response_result: 0, message: T.dashboards.commands.success },
    headers: {},
    text: 'OK',
  });
  for (const n of notices.snapshot()) notices.dismiss(n.id);
}

/** the messages of the notices on screen */
export const noticeMessages = () => notices.snapshot().map((n) => n.message);
