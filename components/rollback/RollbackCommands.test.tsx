// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RollbackCommands } from './RollbackCommands';

const FORCED =
  `oc adm upgrade --to-image=quay.io/openshift-release-dev/ocp-release@sha256:${'a'.repeat(64)}` +
  ' --allow-explicit-upgrade --force';
const RISKS = [
  'The 4.13 ClusterVersion CRD rejects Build, MachineAPI',
  'Control plane health cannot be verified: the CVO cannot report',
];

afterEach(() => cleanup());

describe('RollbackCommands', () => {
  it('holds the commands back while the plan is blocked: no command text, no Copy button, the risks named', () => {
    render(<RollbackCommands commands={[FORCED, 'oc adm upgrade status']} notes={['--force: …']} risks={RISKS} />);
    expect(screen.queryAllByTestId('rollback-command')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /copy/i })).toBeNull();
    expect(screen.getByTestId('rollback-commands').textContent).not.toContain('oc adm upgrade --to-image');
    const hold = screen.getByTestId('commands-hold');
    for (const risk of RISKS) expect(hold.textContent).toContain(risk);
    expect(screen.getByTestId('rollback-notes').textContent).toContain('--force');
  });

  it('shows the copyable commands once the user acknowledges the risks, and hides them again when unticked', () => {
    render(<RollbackCommands commands={[FORCED, 'oc adm upgrade status']} notes={[]} risks={RISKS} />);
    fireEvent.click(screen.getByTestId('acknowledge-risks'));
    const shown = screen.getAllByTestId('rollback-command').map((el) => el.textContent);
    expect(shown).toStrictEqual([FORCED, 'oc adm upgrade status']);
    expect(screen.getAllByRole('button', { name: /copy command/i })).toHaveLength(2);
    fireEvent.click(screen.getByTestId('acknowledge-risks'));
    expect(screen.queryAllByTestId('rollback-command')).toHaveLength(0);
  });

  it('asks again when the plan blocks on different risks', () => {
    const { rerender } = render(<RollbackCommands commands={[FORCED]} notes={[]} risks={RISKS.slice(0, 1)} />);
    fireEvent.click(screen.getByTestId('acknowledge-risks'));
    expect(screen.getAllByTestId('rollback-command')).toHaveLength(1);
    rerender(<RollbackCommands commands={[FORCED]} notes={[]} risks={RISKS} />);
    expect(screen.queryAllByTestId('rollback-command')).toHaveLength(0);
  });

  it('shows the commands at once when nothing blocks', () => {
    render(<RollbackCommands commands={['oc adm upgrade rollback', 'oc adm upgrade status']} notes={[]} />);
    expect(screen.queryByTestId('commands-hold')).toBeNull();
    expect(screen.getAllByRole('button', { name: /copy command/i })).toHaveLength(2);
  });
});
