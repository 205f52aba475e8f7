// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CreateIncidentButton } from './CreateIncidentButton';

const DEFAULT_TITLE = 'The next ClusterVersion status write will be rejected';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The server's answers, in order; returns the bodies the button posted. */
function server(...answers: Response[]): unknown[] {
  const bodies: unknown[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
    bodies.push(JSON.parse(String(init?.body)));
    return answers.shift()!;
  });
  return bodies;
}

const ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const created = () => Response.json({ id: ID, url: `/incidents/${ID}` }, { status: 201 });

function open() {
  const timeWindow = () => ({ from: 1_000, to: 2_000 });
  render(<CreateIncidentButton clusterId="c1" defaultTitle={DEFAULT_TITLE} timeWindow={timeWindow} />);
  fireEvent.click(screen.getByRole('button', { name: 'Create incident' }));
  return screen.getByRole('form', { name: 'New incident' });
}

describe('CreateIncidentButton', () => {
  it('sends the edited title and the note with the window', async () => {
    const bodies = server(created());
    open();
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe(DEFAULT_TITLE);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Rollback stuck' } });
    fireEvent.change(screen.getByLabelText(/^Note/), { target: { value: 'Paged at 10:20.\nOwner: upgrades' } });
    fireEvent.click(screen.getByRole('button', { name: 'Freeze incident' }));
    await waitFor(() => expect(screen.getByTestId('incident-link')).toBeTruthy());
    expect(bodies).toStrictEqual([
      { clusterId: 'c1', from: 1_000, to: 2_000, title: 'Rollback stuck', note: 'Paged at 10:20.\nOwner: upgrades' },
    ]);
  });

  it('leaves the title to the server when it was not edited (its default can be withheld from readers)', async () => {
    const bodies = server(created());
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Freeze incident' }));
    await waitFor(() => expect(screen.getByTestId('incident-link')).toBeTruthy());
    expect(bodies).toStrictEqual([{ clusterId: 'c1', from: 1_000, to: 2_000 }]);
  });

  it('keeps the form and what was typed when the server refuses, with its message', async () => {
    const refusal = { error: { code: 'rate_limited', message: 'too many incidents; try again in 30 s' } };
    server(Response.json(refusal, { status: 429 }));
    open();
    fireEvent.change(screen.getByLabelText(/^Note/), { target: { value: 'long note worth keeping' } });
    fireEvent.click(screen.getByRole('button', { name: 'Freeze incident' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('try again in 30 s'));
    expect((screen.getByLabelText(/^Note/) as HTMLTextAreaElement).value).toBe('long note worth keeping');
    expect(screen.getByRole('form', { name: 'New incident' })).toBeTruthy();
  });
});
