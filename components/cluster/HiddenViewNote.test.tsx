// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HiddenViewNote } from './HiddenViewNote';

afterEach(cleanup);

describe('HiddenViewNote', () => {
  it('says the view is withheld by access, not absent, and lists the access by kind', () => {
    render(
      <HiddenViewNote what="Update progress" missing={['list nodes', 'list clusteroperators.config.openshift.io']} />,
    );
    const note = screen.getByTestId('hidden-view');
    expect(note.textContent).toContain(
      'Update progress not shown: your access does not let you read everything it is built from',
    );
    expect([...note.querySelectorAll('code')].map((code) => code.textContent)).toEqual([
      'list nodes',
      'list clusteroperators.config.openshift.io',
    ]);
  });

  it('renders nothing when the view is not hidden', () => {
    const { container } = render(<HiddenViewNote what="Update progress" missing={undefined} />);
    expect(container.innerHTML).toBe('');
  });
});
